#!/bin/bash
# Benches the performance track's official kernels beside the naive ones (tests/data/perf-track),
# each twice, and prints one line per kernel: median and spread, GB/s, copy bandwidth measured in
# the same run, the ratio to copy, and whether the result matched the CPU reference.
#   bench/perf_track.sh [VKPUZZLES_BINARY] [N]      (defaults: build/vkpuzzles, 2^26)
# The README's table of the performance track comes from this script on an H100.
set -u
V=${1:-build/vkpuzzles}
N=${2:-2^26}
D=tests/data/perf-track
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
run() { # slug name kernel-args...
    local s=$1 n=$2
    shift 2
    timeout 600 "$V" bench "$s" "$@" --n "$N" --json >"$TMP/out.json" 2>"$TMP/err.txt"
    python3 - "$TMP/out.json" "$s" "$n" "$TMP/err.txt" <<'PY'
import json, sys
path, slug, name, err = sys.argv[1:5]
try:
    r = json.load(open(path))
except Exception:
    print("%-18s %-16s failed: %s" % (slug, name, open(err).read().strip()[-300:]))
    sys.exit()
copy = max(r.get("copy_gb_per_s") or 0, r.get("shader_copy_gb_per_s") or 0)
print("%-18s %-16s median %8.3f ms (p10 %.3f, p90 %.3f)  %7.1f GB/s  copy %6.0f GB/s  / copy %.3f  %s"
      % (slug, name, r["median_ms"], r["p10_ms"], r["p90_ms"], r["gb_per_s"], copy,
         r["ratio_to_copy"], "right" if r["pass"] else "WRONG"))
PY
}
echo "$("$V" --version 2>&1 | head -1), N = $N"
for round in 1 2; do
    echo "== round $round"
    run coalesced official --solution
    run coalesced column-walk $D/coalesced/column-walk.comp
    run coalesced stride $D/coalesced/stride.comp
    run transpose-tiled naive $D/transpose-tiled/naive.comp
    run transpose-tiled official --solution
    run transpose-padded tiled $D/transpose-padded/tiled.comp
    run transpose-padded official --solution
    run transpose-padded swizzled $D/transpose-padded/swizzled.comp
    run reduce-sequential interleaved $D/reduce-sequential/interleaved.comp
    run reduce-sequential official --solution
    run reduce-subgroup official --solution
    run histogram-shared global-atomics $D/histogram-shared/global-atomics.comp
    run histogram-shared official --solution
done
