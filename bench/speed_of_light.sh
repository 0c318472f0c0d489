#!/bin/bash
# One table for the fast tracks (issue 38): the last official solution of each family of the
# performance, scan and algorithms tracks beside its yardstick, measured in one run on one device:
# the copy of the same bytes (vkpuzzles bench's own, in the same process) where no peer runs, or
# the peer (PyTorch, CUB) where one does. Prints the fraction of the yardstick's speed, the
# family's target and whether it is met, then every command it ran.
#   bench/speed_of_light.sh [VKPUZZLES_BINARY] [N]   (default build/vkpuzzles; N: every family at
#                                                     this N instead of its own, for a quick look;
#                                                     SOL_ONLY=REGEX: only the rows it matches)
# The peers need a CUDA GPU: nvcc for CUB (bench/peers/*.cu), PyTorch for the rest; where they are
# missing the row says so. docs/performance.md's speed-of-light table comes from this script.
set -u
V=${1:-build/vkpuzzles}
ONE_N=${2:-}
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# The CUB peers build while our kernels run.
if command -v nvcc >/dev/null; then
    (for p in cub_scan cub_radix_sort; do
        nvcc -O3 -o "$TMP/$p" "$HERE/peers/$p.cu" >"$TMP/$p.nvcc.txt" 2>&1
    done) &
fi
echo "$("$V" --version 2>&1 | head -1)"
# family | puzzle | N | yardstick: copy, or a peer command | target fraction of its speed ("-":
# none set; the row shows where it stands)
cat >"$TMP/families.txt" <<'ROWS'
copy-like|items-per-thread|2^26|copy|0.90
transpose|transpose-items|2^26|copy|0.85
reduction|reduce-items|2^26|copy|0.90
histogram|histogram-items|2^26|copy|0.85
matmul fp32|matmul-items|2^20|torch mm|0.50
tensor cores|matmul-tensor-cores|2^20|torch mm_f16|-
tensor blocks|matmul-tensor-blocks|2^20|torch mm_f16|0.60
softmax|softmax-registers|2^28|torch softmax|0.90
layer norm|layer-norm-registers|2^28|torch layer_norm|0.90
scan|scan-decoupled|2^28|cub_scan|0.90
sort|radix-sort-onesweep|2^28|cub_radix_sort|0.67
attention|flash-attention|2^20|torch sdpa|-
attention, tiled|attention-tiled|2^20|torch sdpa|0.80
causal attention|attention-causal|2^20|torch sdpa_causal|0.80
gemv|gemv|2^26|torch mv cols=4096|0.80
int8 matmul|matmul-int8|2^18|torch int_mm words=256|0.80
conv2d 3x3|conv2d|2^24|torch conv2d k=3|0.80
block sort|bitonic-block|2^24|torch sort_rows block=512|0.80
sort fp32|bitonic-global|2^24|torch sort|0.80
top-k|topk|2^24|torch topk cols=1024 k=8|0.80
fft|fft|2^24|torch fft len=1024|0.80
spmv, thread|spmv-csr|2^22|torch spmv per=16|0.80
spmv, subgroup|spmv-subgroup|2^22|torch spmv per=16|0.80
bfs|bfs|2^24|copy|0.85
ROWS
# SOL_ONLY=REGEX keeps the rows whose line matches it (a device session too short for all of them).
if [ -n "${SOL_ONLY:-}" ]; then grep -E "$SOL_ONLY" "$TMP/families.txt" >"$TMP/kept.txt" || true
    mv "$TMP/kept.txt" "$TMP/families.txt"; fi
if [ -n "$ONE_N" ]; then sed -i "s/|2^[0-9]*|/|$ONE_N|/" "$TMP/families.txt"; fi
while IFS='|' read -r family slug n yard target; do
    timeout 600 "$V" bench "$slug" --solution --n "$n" --json >"$TMP/$slug.json" 2>"$TMP/$slug.err"
    echo "$V bench $slug --solution --n $n --json" >>"$TMP/commands.txt"
done <"$TMP/families.txt"
wait
peer_line() { # yardstick N: the peer's output line
    local n
    n=$(python3 -c "print(eval('$2'.replace('^', '**')))")
    case "$1" in
    torch\ *) # torch OP [KEY=VALUE ...]: the peer's op, then the shape's other numbers
        local words
        read -r -a words <<<"${1#torch }"
        echo "python3 $HERE/peers/torch_peers.py ${words[0]} $2 ${words[*]:1}" >>"$TMP/commands.txt"
        python3 "$HERE/peers/torch_peers.py" "${words[0]}" "$2" "${words[@]:1}" 2>&1 | tail -1 ;;
    cub_*)
        echo "$TMP/$1 $n  (nvcc -O3 $HERE/peers/$1.cu)" >>"$TMP/commands.txt"
        if [ -x "$TMP/$1" ]; then "$TMP/$1" "$n" 2>&1 | tail -1
        else echo "$1 not built: $(tail -2 "$TMP/$1.nvcc.txt" 2>/dev/null || echo no nvcc)"; fi ;;
    esac
}
while IFS='|' read -r family slug n yard target; do
    [ "$yard" = copy ] && continue
    peer_line "$yard" "$n" >"$TMP/$slug.peer"
done <"$TMP/families.txt"
python3 - "$TMP" <<'PY'
import json, re, sys
tmp = sys.argv[1]
rows = [l.rstrip("\n").split("|") for l in open(tmp + "/families.txt") if l.strip()]
device = ""
print("%-12s %-24s %5s %9s  %-34s %9s  %8s %7s  %s" % ("family", "official solution", "N", "ms",
      "yardstick", "ms", "fraction", "target", "met"))
for family, slug, n, yard, target in rows:
    try:
        r = json.load(open("%s/%s.json" % (tmp, slug)))
    except Exception:
        err = open("%s/%s.err" % (tmp, slug)).read().strip().splitlines()
        print("%-12s %-24s %5s  failed: %s" % (family, slug, n, err[-1] if err else "no output"))
        continue
    device = r["device"]
    ours = r["median_ms"]
    wrong = "" if r["pass"] else "  (WRONG result)"
    steady = "" if r.get("steady", True) else "  (unsteady: %s)" % r["unsteady"]
    if yard == "copy":
        what, theirs = "copy of its bytes (same run)", r["limit_ms"]
    else:
        line = open("%s/%s.peer" % (tmp, slug)).read().strip()
        m = re.search(r"median\s+([\d.]+) ms", line)
        if not m:
            print("%-12s %-24s %5s %9.3f  %-34s  %s" % (family, slug, n, ours, yard, line[-60:]))
            continue
        what, theirs = line.split("  ")[0].strip(), float(m.group(1))
    fraction = theirs / ours
    met = "-" if target == "-" else "yes" if fraction >= float(target) else "no"
    print("%-12s %-24s %5s %9.3f  %-34s %9.3f  %8.2f %7s  %s%s%s" % (
        family, slug, n, ours, what[:34], theirs, fraction,
        "none" if target == "-" else ">= " + target, met, wrong, steady))
print("on %s; fraction = the yardstick's time / ours (1.00: as fast)" % device)
PY
echo "commands:"
sed 's/^/  /' "$TMP/commands.txt"
