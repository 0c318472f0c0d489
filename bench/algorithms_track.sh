#!/bin/bash
# Benches the algorithms track's official kernels beside their peers in one run: our row softmax
# (three reads per element), online softmax (two reads) and layer norm (two reads), and
# torch.softmax and torch.nn.functional.layer_norm along the rows of the same 2^14 x 2^14 float
# matrix (where PyTorch and a GPU are there); our radix sort of N random uints beside CUB's
# DeviceRadixSort::SortKeys (built with nvcc from bench/peers/, where CUDA is there) and
# torch.sort. Each with GB/s counted as one read and one write of the data, and the copy
# bandwidth measured in the same run.
#   bench/algorithms_track.sh [VKPUZZLES_BINARY] [N] [softmax|layer-norm|sort ...]
#   (defaults: build/vkpuzzles, 2^28, all three groups)
# docs/performance.md's algorithms table comes from this script on an H100.
set -u
V=${1:-build/vkpuzzles}
N=${2:-2^28}
shift $(($# < 2 ? $# : 2))
GROUPS_WANTED=" ${*:-softmax layer-norm sort} "
wanted() { [[ "$GROUPS_WANTED" == *" $1 "* ]]; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ours() { # slug
    timeout 600 "$V" bench "$1" --solution --n "$N" --json >"$TMP/out.json" 2>"$TMP/err.txt"
    python3 - "$TMP/out.json" "$1" "$TMP/err.txt" <<'PY'
import json, sys
path, slug, err = sys.argv[1:4]
try:
    r = json.load(open(path))
except Exception:
    print("%-16s failed: %s" % (slug, open(err).read().strip()[-300:]))
    sys.exit()
rows, cols = r["shape"]
gbs = 2.0 * 4 * rows * cols / (r["median_ms"] * 1e-3) / 1e9
copy = max(r.get("copy_gb_per_s") or 0, r.get("shader_copy_gb_per_s") or 0)
print("%-16s %dx%d  median %8.3f ms (p10 %.3f, p90 %.3f)  %7.1f GB/s  copy %6.0f GB/s  / copy %.3f  %s"
      % (slug, rows, cols, r["median_ms"], r["p10_ms"], r["p90_ms"], gbs, copy, gbs / copy if copy else 0,
         "right" if r["pass"] else "WRONG"))
PY
}
sorted_ours() {
    timeout 600 "$V" bench radix-sort --solution --n "$N" --json >"$TMP/sort.json" 2>"$TMP/err.txt"
    python3 - "$TMP/sort.json" "$TMP/err.txt" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception:
    print("%-20s failed: %s" % ("radix-sort", open(sys.argv[2]).read().strip()[-300:]))
    sys.exit()
gbs = 2.0 * 4 * r["n"] / (r["median_ms"] * 1e-3) / 1e9
copy = max(r.get("copy_gb_per_s") or 0, r.get("shader_copy_gb_per_s") or 0)
passes = ", ".join("%s %.3f" % (p["kernel"], p["median_ms"]) for p in r.get("passes", []))
print("%-20s n %d  median %8.3f ms (p10 %.3f, p90 %.3f)  %7.1f GB/s  copy %6.0f GB/s  / copy %.3f  %s  (%s ms)"
      % ("radix-sort", r["n"], r["median_ms"], r["p10_ms"], r["p90_ms"], gbs, copy, gbs / copy if copy else 0,
         "right" if r["pass"] else "WRONG", passes))
PY
}
cub_sort() {
    local n
    n=$(python3 -c "print(eval('$N'.replace('^', '**')))")
    if [ ! -x "$TMP/cub_radix_sort" ]; then
        if ! command -v nvcc >/dev/null; then echo "cub DeviceRadixSort  not measured: no nvcc"; return; fi
        nvcc -O3 -o "$TMP/cub_radix_sort" "$(dirname "$0")/peers/cub_radix_sort.cu" 2>"$TMP/nvcc.txt" ||
            { echo "cub DeviceRadixSort  not built: $(tail -3 "$TMP/nvcc.txt")"; return; }
    fi
    "$TMP/cub_radix_sort" "$n"
}
peer() { # softmax|layer_norm|sort: PyTorch's, from bench/peers/torch_peers.py
    python3 "$(dirname "$0")/peers/torch_peers.py" "$1" "$N" 2>&1 | tail -1
}
echo "$("$V" --version 2>&1 | head -1), N = $N"
for round in 1 2; do
    echo "== round $round"
    if wanted softmax; then
        ours softmax
        ours softmax-online
        peer softmax
    fi
    if wanted layer-norm; then
        ours layer-norm
        peer layer_norm
    fi
    if wanted sort; then
        sorted_ours
        cub_sort
        peer sort
    fi
done
