#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for a bounded time on the
# corpus kept in tests/fuzz/corpus (new inputs go to a scratch copy, not into the repository).
#   tests/fuzz/run.sh [BUILD_DIR] [SECONDS_PER_TARGET]
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$src/build/fuzz}
secs=${2:-20}
mkdir -p "$out"
flags=(-std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I"$src/src")
toml=$(pkg-config --cflags --libs tomlplusplus)
core=("$src"/src/core/{result,diagnostic,source_text,buffer_data,puzzle,puzzle_loader,reference_ops,checker,trace,expr,passes,pass_loader,text_file}.cpp)
echo "building fuzz targets in $out"
# shellcheck disable=SC2086
clang++ "${flags[@]}" "$src/tests/fuzz/loader_fuzz.cpp" "${core[@]}" $toml -o "$out/loader_fuzz"
# shellcheck disable=SC2086
clang++ "${flags[@]}" "$src/tests/fuzz/reflect_fuzz.cpp" "$src"/src/shader/{spirv_module,spirv_editor,reflect}.cpp \
  "$src"/src/core/{result,trace}.cpp $toml -o "$out/reflect_fuzz"
status=0
for target in loader reflect; do
  scratch="$out/corpus-$target"
  mkdir -p "$scratch"
  echo "fuzzing $target for ${secs}s"
  if ! "$out/${target}_fuzz" "$scratch" "$src/tests/fuzz/corpus/$target" -max_total_time="$secs" \
       -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -artifact_prefix="$out/$target-" 2>"$out/$target.log"; then
    echo "FAILED: $target (see $out/$target.log; crash inputs: $out/$target-*)"
    tail -40 "$out/$target.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::new_units_added" "$out/$target.log" | sed "s/^/  $target: /"
  fi
done
exit $status
