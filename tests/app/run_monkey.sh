#!/usr/bin/env bash
# The GUI monkey test on a build of the app with AddressSanitizer and UndefinedBehaviorSanitizer:
# configures BUILD_DIR (-DVKPUZZLES_SANITIZE=ON, no tests), builds only the vkpuzzles target, and
# runs GuiMonkeyTest from the app tests against that binary.
#   tests/app/run_monkey.sh SOURCE_DIR BUILD_DIR APP_TESTS_BINARY [SECONDS] [build|run|all]
# build: only the sanitized app (CTest's fixture build_asan_app); run: only the test, on the app
# built before; all (the default): both.
# VKPUZZLES_MONKEY_SEED picks another random sequence (the test prints the one it used).
set -euo pipefail
src=$1
out=$2
tests=$3
secs=${4:-60}
mode=${5:-all}
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
# -O1: the sanitizers' usual level, quicker to build than -O2 and fast enough to drive by hand.
# -g1: line tables only, all a sanitizer's report names (file:line of each frame), cheaper to
# build than full debug information.
if [ "$mode" != run ]; then
  cmake -S "$src" -B "$out" -DVKPUZZLES_SANITIZE=ON -DVKPUZZLES_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" "${launcher[@]}" >/dev/null
  echo "building the sanitized app in $out"
  cmake --build "$out" --target vkpuzzles -j"${VKPUZZLES_JOBS:-2}" >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
fi
[ "$mode" = build ] && exit 0
[ -x "$out/vkpuzzles" ] || { echo "no sanitized app in $out: build it first (mode build)"; exit 1; }
VKPUZZLES_BINARY="$out/vkpuzzles" VKPUZZLES_MONKEY_SECONDS="$secs" exec "$tests" --gtest_filter='GuiMonkeyTest.*'
