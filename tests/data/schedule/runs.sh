#!/bin/sh
# How often each forced-schedule mutant is caught: runs `check scan-decoupled MUTANT --json` N times
# and counts the runs in which every case its schedule exposes failed (cases 4 and 6 for the
# look-back that stops at an aggregate, 3 and 5 for the others); then the official solution N
# times (every case passes).
#   tests/data/schedule/runs.sh [path/to/vkpuzzles] [N]     (defaults: build/vkpuzzles, 20)
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${1:-$root/build/vkpuzzles}
n=${2:-20}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for m in "$root"/tests/data/schedule/*.comp; do
    case $m in *aggregate*) want="3 5" ;; *) want="2 4" ;; esac
    caught=0
    for _ in $(seq "$n"); do
        "$bin" check scan-decoupled "$m" --json > "$out" 2>/dev/null
        python3 - "$out" "$want" <<'PY' && caught=$((caught + 1))
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
sys.exit(0 if all(not cases[int(i)]["pass"] for i in sys.argv[2].split()) else 1)
PY
    done
    echo "$(basename "$m"): caught in $caught of $n runs"
done
ok=0
for _ in $(seq "$n"); do "$bin" check scan-decoupled --solution > /dev/null 2>&1 && ok=$((ok + 1)); done
echo "official solution: passed $ok of $n runs"
