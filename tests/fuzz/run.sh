#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for a bounded time on the
# corpus kept in tests/fuzz/corpus (new inputs go to a scratch copy, not into the repository).
#   tests/fuzz/run.sh [BUILD_DIR] [SECONDS_PER_TARGET] [build|run|all]
# build: only the targets (CTest's fixture build_fuzz_targets, on VKPUZZLES_JOBS cores); run: only
# the fuzzing, with the targets built before (one core); all (the default): both.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$src/build/fuzz}
secs=${2:-20}
mode=${3:-all}
mkdir -p "$out"
if [ "$mode" != run ]; then
  flags=(-std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I"$src/src" -DVKPUZZLES_VERSION=\"fuzz\")
  toml=$(pkg-config --cflags --libs tomlplusplus)
  toml_cflags=$(pkg-config --cflags tomlplusplus)
  echo "building fuzz targets in $out"
  # The libraries below shader (base ... authoring), shader and rewrite, once each, as archives: each
  # target links what it uses, so a new file in any of them never breaks a target's link
  # (hand-kept lists of their files twice did).
  cc=(clang++)
  if command -v ccache >/dev/null; then cc=(ccache clang++); fi # CI keeps its objects across runs
  jobs_max=${VKPUZZLES_JOBS:-2}
  archive() { # archive LIBRARY: src/LIBRARY/*.cpp compiled into $out/libLIBRARY.a
    local objs="$out/$1-objs" failed=0 f
    rm -rf "$objs" && mkdir -p "$objs"
    for f in "$src/src/$1"/*.cpp; do
      case "$f" in *_windows.cpp) continue ;; esac # the OS seam's other side (src/base/os.h)
      while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || failed=1; done
      # shellcheck disable=SC2086
      "${cc[@]}" "${flags[@]}" $toml_cflags -c "$f" -o "$objs/$(basename "$f" .cpp).o" &
    done
    while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
    [ "$failed" = 0 ] || { echo "FAILED: a file of src/$1 did not compile (above)"; exit 1; }
    rm -f "$out/lib$1.a" && ar rcs "$out/lib$1.a" "$objs"/*.o
  }
  archive base
  archive device
  archive reference
  archive puzzle
  archive trace
  archive judge
  archive authoring
  archive report
  below=("$out/libauthoring.a" "$out/libjudge.a" "$out/libtrace.a" "$out/libpuzzle.a" "$out/libreference.a" "$out/libdevice.a" "$out/libbase.a") # the libraries under shader, top first
  archive shader
  archive rewrite # the compile stage instruments and adapts kernels (kernel_fuzz)
  # shellcheck disable=SC2086
  clang++ "${flags[@]}" "$src/tests/fuzz/loader_fuzz.cpp" "${below[@]}" $toml -o "$out/loader_fuzz"
  # shellcheck disable=SC2086
  clang++ "${flags[@]}" "$src/tests/fuzz/case_file_fuzz.cpp" "$out/libreport.a" "${below[@]}" $toml \
    -o "$out/case_file_fuzz"
  # shellcheck disable=SC2086
  clang++ "${flags[@]}" "$src/tests/fuzz/reflect_fuzz.cpp" "$out/libshader.a" "${below[@]}" \
    $toml -o "$out/reflect_fuzz"
  # The kernel-text target links the compile stage with glslang, shaderc and SPIRV-Tools (Debian's
  # static libraries, in one rescanned group as in CMakeLists.txt).
  libdir=$(dirname "$(find /usr/lib -name libshaderc_combined.a -print -quit)")
  glslang=()
  for lib in glslang SPIRV MachineIndependent GenericCodeGen OSDependent OGLCompiler HLSL glslang-default-resource-limits; do
    [[ -f "$libdir/lib$lib.a" ]] && glslang+=("$libdir/lib$lib.a")
  done
  # shellcheck disable=SC2086
  clang++ "${flags[@]}" -DVKPUZZLES_SOURCE_DIR="\"$src\"" "$src/tests/fuzz/kernel_fuzz.cpp" "$src/src/check/compile_stage.cpp" \
    "$out/librewrite.a" "$out/libshader.a" "${below[@]}" $toml \
    -Wl,--start-group "$libdir/libshaderc_combined.a" "${glslang[@]}" "$libdir/libSPIRV-Tools-opt.a" "$libdir/libSPIRV-Tools.a" -Wl,--end-group \
    -lpthread -o "$out/kernel_fuzz"
fi
[ "$mode" = build ] && exit 0
for target in loader reflect kernel case_file; do
  [ -x "$out/${target}_fuzz" ] || { echo "no $out/${target}_fuzz: build the targets first (mode build)"; exit 1; }
done
# The kernel seeds are the official solutions, beside the corpus kept in the repository.
seeds="$out/seeds-kernel"
rm -rf "$seeds" && mkdir -p "$seeds"
for f in "$src"/puzzles/*/solution.comp "$src"/puzzles/*/solution/*.comp; do
  [[ -f "$f" ]] && cp "$f" "$seeds/$(basename "$(dirname "$f")")-$(basename "$f")"
done
status=0
# A compile that hangs is stopped by the compiler's own limit, well before libFuzzer's -timeout.
export VKPUZZLES_COMPILE_TIMEOUT=5
for target in loader reflect kernel case_file; do
  scratch="$out/corpus-$target"
  mkdir -p "$scratch"
  echo "fuzzing $target for ${secs}s"
  extra=()
  [[ $target == kernel ]] && extra=("$seeds" -max_len=8192)
  if ! "$out/${target}_fuzz" "$scratch" "$src/tests/fuzz/corpus/$target" "${extra[@]}" -max_total_time="$secs" \
       -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -artifact_prefix="$out/$target-" 2>"$out/$target.log"; then
    echo "FAILED: $target (see $out/$target.log; crash inputs: $out/$target-*)"
    tail -40 "$out/$target.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::new_units_added" "$out/$target.log" | sed "s/^/  $target: /"
  fi
done
exit $status
