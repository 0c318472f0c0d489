#!/bin/bash
# Benches the performance track's official kernels beside the naive ones (tests/data/perf-track),
# each twice, and prints one line per kernel: median and spread, GB/s, copy bandwidth measured in
# the same run, the ratio to copy, and whether the result matched the CPU reference.
#   bench/perf_track.sh [VKPUZZLES_BINARY] [N] [MATMUL_N]   (defaults: build/vkpuzzles, 2^26, 2^20)
# The matmuls run at MATMUL_N (a is rows x cols = MATMUL_N, b cols x cols: 1024 x 1024 at 2^20,
# where the CPU reference that checks them takes seconds; at 2^22 four of them passed 7 minutes)
# and print GFLOP/s, not a ratio to copy: they do 2 * INNER flops per cell and are not bound by
# memory.
# docs/performance.md's table of the performance track comes from this script on an H100.
set -u
V=${1:-build/vkpuzzles}
N=${2:-2^26}
MN=${3:-2^20}
D=tests/data/perf-track
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# One bench, one line: "memory" kernels against copy at N, "matmul" ones in GFLOP/s at MN.
bench_line() { # memory|matmul slug name kernel-args...
    local kind=$1 s=$2 n=$3 size=$N
    shift 3
    [ "$kind" = matmul ] && size=$MN
    timeout 600 "$V" bench "$s" "$@" --n "$size" --json >"$TMP/out.json" 2>"$TMP/err.txt"
    python3 - "$TMP/out.json" "$kind" "$s" "$n" "$TMP/err.txt" <<'PY'
import json, sys
path, kind, slug, name, err = sys.argv[1:6]
try:
    r = json.load(open(path))
except Exception:
    print("%-22s %-16s failed: %s" % (slug, name, open(err).read().strip()[-300:]))
    sys.exit()
verdict = "right" if r["pass"] else "WRONG"
head = "%-22s %-16s median %8.3f ms (p10 %.3f, p90 %.3f)" % (slug, name, r["median_ms"], r["p10_ms"], r["p90_ms"])
if kind == "matmul":
    rows, cols = r["shape"]
    gflops = 2.0 * rows * cols * cols / (r["median_ms"] * 1e-3) / 1e9
    print("%s  %dx%d  %8.0f GFLOP/s  %s" % (head, rows, cols, gflops, verdict))
else:
    copy = max(r.get("copy_gb_per_s") or 0, r.get("shader_copy_gb_per_s") or 0)
    print("%s  %7.1f GB/s  copy %6.0f GB/s  / copy %.3f  %s"
          % (head, r["gb_per_s"], copy, r["ratio_to_copy"], verdict))
PY
}
run() { bench_line memory "$@"; }
matmul() { bench_line matmul "$@"; }
# PERF_TRACK_PART=memory or matmul runs only that part (each takes minutes on an H100).
part=${PERF_TRACK_PART:-all}
echo "$("$V" --version 2>&1 | head -1), N = $N"
for round in 1 2; do
    [ "$part" = matmul ] && break
    echo "== round $round"
    run coalesced official --solution
    run coalesced column-walk $D/coalesced/column-walk.comp
    run coalesced stride $D/coalesced/stride.comp
    run items-per-thread official --solution
    run transpose-tiled naive $D/transpose-tiled/naive.comp
    run transpose-tiled official --solution
    run transpose-padded tiled $D/transpose-padded/tiled.comp
    run transpose-padded official --solution
    run transpose-padded swizzled $D/transpose-padded/swizzled.comp
    run reduce-sequential interleaved $D/reduce-sequential/interleaved.comp
    run reduce-sequential official --solution
    run reduce-subgroup official --solution
    run reduce-items official --solution
    run histogram-shared global-atomics $D/histogram-shared/global-atomics.comp
    run histogram-shared official --solution
    run histogram-items load-and-count $D/histogram-items/load-and-count.comp
    run histogram-items official --solution
done
for round in 1 2; do
    [ "$part" = memory ] && break
    echo "== matmuls, round $round, N = $MN"
    matmul matmul naive $D/matmul/naive.comp
    matmul matmul official --solution
    matmul matmul-register-tiling one-output $D/matmul-register-tiling/one-output-tiles.comp
    matmul matmul-register-tiling official --solution
    matmul matmul-items word-by-word $D/matmul-items/word-by-word.comp
    matmul matmul-items official --solution
done
