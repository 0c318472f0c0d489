#!/bin/bash
# Benches the algorithms track's official kernels beside their peers in one run: our row softmax
# (three reads per element), online softmax (two reads) and layer norm (two reads), and
# torch.softmax and torch.nn.functional.layer_norm along the rows of the same 2^14 x 2^14 float
# matrix (where PyTorch and a GPU are there), each with GB/s counted as one read and one write of
# the matrix, and the copy bandwidth our bench measures in the same run.
#   bench/algorithms_track.sh [VKPUZZLES_BINARY] [N]   (defaults: build/vkpuzzles, 2^28)
# The README's algorithms table comes from this script on an H100.
set -u
V=${1:-build/vkpuzzles}
N=${2:-2^28}
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
peer() { # softmax|layer_norm
    python3 - "$N" "$1" <<'PY' 2>&1 | tail -1
import sys
op = sys.argv[2]
name = {"softmax": "torch.softmax", "layer_norm": "torch layer_norm"}[op]
try:
    import torch
    assert torch.cuda.is_available()
except Exception as e:
    print("%-16s not measured: %s" % (name, e)); sys.exit()
n = eval(sys.argv[1].replace("^", "**"))
side = 1 << ((n.bit_length() - 1) // 2)
x = torch.randn(side, n // side, device="cuda")
gamma = torch.randn(x.shape[1], device="cuda")
beta = torch.randn(x.shape[1], device="cuda")
if op == "softmax":
    f = lambda: torch.softmax(x, dim=1)
else:
    f = lambda: torch.nn.functional.layer_norm(x, (x.shape[1],), gamma, beta, 1e-5)
for _ in range(3):
    f()
times = []
for _ in range(20):
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record(); f(); b.record(); torch.cuda.synchronize()
    times.append(a.elapsed_time(b))
times.sort()
med = times[len(times) // 2]
gbs = 2.0 * 4 * x.numel() / (med * 1e-3) / 1e9
print("%-16s %dx%d  median %8.3f ms (p10 %.3f, p90 %.3f)  %7.1f GB/s  (torch %s)"
      % (name, x.shape[0], x.shape[1], med, times[2], times[17], gbs, torch.__version__))
PY
}
echo "$("$V" --version 2>&1 | head -1), N = $N"
for round in 1 2; do
    echo "== round $round"
    ours softmax
    ours softmax-online
    peer softmax
    ours layer-norm
    peer layer_norm
done
