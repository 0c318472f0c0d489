#!/usr/bin/env bash
# The Windows zip proven under Wine, as a learner and a teacher would use it:
#   packaging/windows/check.sh ZIP BUILD_DIR [SCREENSHOTS_DIR]
# The zip is unpacked into an empty folder whose path has spaces and non-ASCII letters, and
# vkpuzzles.exe runs there under Wine with Xvfb (Wine's Vulkan needs a display) on the host's
# lavapipe: every official solution passes; an endless kernel is stopped by --timeout; a kernel
# that crashes the compiler's helper is an error on the kernel; a small class is graded; a case
# file is exported and printed; the app draws a puzzle into a PNG (kept in SCREENSHOTS_DIR to be
# looked at); and the unit-tier test programs of BUILD_DIR pass. Each check prints its time; the
# run fails on the first check that fails.
set -euo pipefail
zip=$(realpath "$1")
build=$(realpath "$2")
shots=${3:-}
[ -z "$shots" ] || mkdir -p "$shots"
repo=$(cd "$(dirname "$0")/../.." && pwd)

# Wine and Xvfb, installed as the other commands install what they need (as root).
need=()
for p in wine64 wine xvfb; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  [ "$(id -u)" -eq 0 ] || { echo "check.sh needs these Debian packages: ${need[*]}" >&2; exit 2; }
  echo "installing ${need[*]}"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; } >/dev/null 2>&1 ||
    { echo "check.sh: apt-get could not install ${need[*]}" >&2; exit 2; }
fi
# The unit tier's programs, built beside the zip's (once; later runs rebuild what changed).
cmake --build "$build" -j"${VKPUZZLES_JOBS:-2}" --target windows_unit_tests >"$build/unit-tests.log" 2>&1 ||
  { tail -20 "$build/unit-tests.log" >&2; echo "check.sh: the unit tests did not build" >&2; exit 2; }

wine=
for w in /usr/lib/wine/wine64 /usr/bin/wine64 /usr/lib/wine/wine /usr/bin/wine; do
  [ -x "$w" ] && { wine=$w; break; }
done
[ -n "$wine" ] || { echo "check.sh: Wine is not installed (apt-get install wine64 wine)" >&2; exit 2; }
command -v Xvfb >/dev/null || { echo "check.sh: Xvfb is not installed (apt-get install xvfb)" >&2; exit 2; }

work=$(mktemp -d /tmp/vkpuzzles-wine.XXXXXX)
xvfb=
cleanup() {
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
  WINEPREFIX=$work/prefix "${wine%/*}/wineserver" -k 2>/dev/null || wineserver -k 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

display=:$((90 + RANDOM % 400))
Xvfb "$display" -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
export DISPLAY=$display WINEPREFIX=$work/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
# The host's lavapipe, through Wine's vulkan-1.dll; its shader cache beside the CI's own.
export MESA_SHADER_CACHE_DIR=${MESA_SHADER_CACHE_DIR:-$work/mesa-cache}
export VKPUZZLES_TIMEOUT=${VKPUZZLES_TIMEOUT:-300} # a loaded machine's cases must never look endless

failures=0
check() { # check NAME COMMAND...: runs it, prints its time and PASS/FAIL
  local name=$1 started=$SECONDS
  shift
  if "$@" >"$work/out" 2>&1; then
    echo "PASS  $name ($((SECONDS - started)) s)"
  else
    echo "FAIL  $name ($((SECONDS - started)) s):"
    tail -40 "$work/out" | sed 's/^/      /'
    failures=$((failures + 1))
  fi
}

# The folder a learner unzipped into, with spaces and letters outside ASCII in its path.
home="$work/Zoë Ødegård's downloads"
mkdir -p "$home"
cmake -E chdir "$home" cmake -E tar xf "$zip"
app=$(ls -d "$home"/vkpuzzles-*-windows-x64)
exe=$app/vkpuzzles.exe
# A data folder (%APPDATA%) with such a path too.
export APPDATA="Z:${work//\//\\}\\Zoë\\AppData" LOCALAPPDATA="Z:${work//\//\\}\\Zoë\\Local"
vkp() { "$wine" "$exe" "$@"; }
has() { grep -qF -- "$1" "$work/out" || { echo "missing: $1"; return 1; }; }
winpath() { echo "Z:${1//\//\\}"; }

echo "Wine $("$wine" --version 2>/dev/null || echo '?'), $exe"
started=$SECONDS
"${wine%/*}/wineboot" -i >/dev/null 2>&1 || "$wine" wineboot -i >/dev/null 2>&1 || true
# A crash ends the process at once, as on Windows without a debugger (Wine would wait in winedbg).
"$wine" reg delete 'HKLM\Software\Microsoft\Windows NT\CurrentVersion\AeDebug' /v Debugger /f >/dev/null 2>&1 || true
echo "a fresh Wine prefix in $((SECONDS - started)) s"

devices() { vkp devices && grep -qi "llvmpipe" "$work/out"; }
check "vkpuzzles.exe devices lists lavapipe through Wine's Vulkan" devices

all_solutions() {
  vkp check --all --solution --color never || return 1
  ! grep -qE "FAIL|error" "$work/out"
}
check "check --all --solution: every official solution passes" all_solutions

learner() { # a learner's own kernel in a folder with such a path, one failing and one passing
  mkdir -p "$home/my kernels"
  cp "$repo/puzzles/01-map/solution.comp" "$home/my kernels/mäp.comp"
  sed 's/+ 10.0/+ 11.0/' "$repo/puzzles/01-map/solution.comp" >"$home/my kernels/wrong.comp"
  vkp check map "$(winpath "$home/my kernels/mäp.comp")" --color never >"$work/right" 2>&1 || return 1
  grep -q "cases pass" "$work/right" || return 1
  local code=0
  vkp check map "$(winpath "$home/my kernels/wrong.comp")" --color never || code=$?
  [ "$code" = 1 ] && has "FAIL"
}
check "check map KERNEL.comp from a folder named with non-ASCII letters" learner

endless() {
  local code=0
  vkp check --puzzles "$(winpath "$repo/tests/data/stuck")" stuck \
    "$(winpath "$repo/tests/data/stuck/01-stuck/stuck.comp")" --no-trace --timeout 3 --color never || code=$?
  [ "$code" = 1 ] && has "did not finish"
}
check "an endless kernel with --timeout 3 is stopped: exit 1" endless

compiler_crash() { # puzzle 01's solution with 50000 terms on one line: glslang overflows its stack
  local kernel="$home/my kernels/crash.comp" code=0
  awk '{ if (index($0, "a[i] + 10.0")) { t = ""; for (i = 0; i < 50000; i++) t = t " + 0.0"; sub(/a\[i\] \+ 10\.0/, "a[i] + 10.0" t) } print }' \
    "$repo/puzzles/01-map/solution.comp" >"$kernel"
  vkp check map "$(winpath "$kernel")" --color never || code=$?
  [ "$code" != 0 ] && has "the compiler crashed" && has "crash.comp:17"
}
check "a kernel that crashes the compiler's helper is an error on its line" compiler_crash

grade() {
  cp -r "$repo/tests/data/grade" "$home/clåss"
  vkp --puzzles "$(winpath "$home/clåss/pack")" grade --all "$(winpath "$home/clåss/class")" \
    --csv "$(winpath "$home/clåss/scores.csv")" --timeout 60 --color never || return 1
  has "alice" && has "bob" && has "carol" && [ -s "$home/clåss/scores.csv" ]
}
check "grade --all of a small class, scores in a CSV" grade

case_file() { # export exits 1 as check does: the case it wrote fails
  local code=0
  vkp export map "$(winpath "$home/my kernels/wrong.comp")" --out "$(winpath "$home/my kernels/wrong.vkpcase")" || code=$?
  [ "$code" -le 1 ] && [ -s "$home/my kernels/wrong.vkpcase" ] || return 1
  code=0 # open --print exits with the verdict's status, as trace does: 1, the case fails
  vkp open "$(winpath "$home/my kernels/wrong.vkpcase")" --print --color never || code=$?
  [ "$code" = 1 ] && has "case 1" && has "outputs wrong" && has "W result[0]"
}
check "export a case file, then open --print" case_file

screenshot() {
  vkp --screenshot "$(winpath "$work/app.png")" --puzzle map \
    --kernel "$(winpath "$home/my kernels/wrong.comp")" || return 1
  [ -s "$work/app.png" ] || return 1
  vkp --screenshot "$(winpath "$work/presenter.png")" --puzzle map --case 3 --presenter \
    --kernel "$(winpath "$home/my kernels/wrong.comp")" || return 1
  [ -s "$work/presenter.png" ] || return 1
  [ -z "$shots" ] || cp "$work/app.png" "$shots/windows-app-map.png"
  [ -z "$shots" ] || cp "$work/presenter.png" "$shots/windows-presenter-map.png"
}
check "the app draws a puzzle, and presenter mode, into PNGs" screenshot

unit_tests() {
  local t code=0
  for t in "$build"/tests/vkp_*_tests.exe; do
    echo "== $(basename "$t")"
    "$wine" "$t" --gtest_brief=1 --gtest_filter=-WorkbenchTest.*:DispatchTest.APickIsKeptWhileTheCaseStays ||
      code=1
  done
  return $code
}
check "the unit-tier test programs pass under Wine" unit_tests

[ "$failures" = 0 ] || { echo "$failures Windows check(s) failed"; exit 1; }
echo "every Windows check passed"
