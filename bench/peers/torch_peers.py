"""PyTorch's kernels beside ours, for bench/algorithms_track.sh: one line per call, in the
script's format, with the median of 20 timed runs (after 3 warm-ups) by CUDA events.
    python3 torch_peers.py softmax|layer_norm|sort|mm|mm_f16|sdpa N
    python3 torch_peers.py mv|spmv|conv2d|fft|topk|sort_rows|int_mm|sdpa_causal N [KEY=VALUE ...]
softmax and layer_norm run along the rows of a float matrix as square as N allows; sort sorts N
random uint32 keys (as int64 where this torch cannot sort uint32 on the GPU: twice the bytes);
mm multiplies a float32 matrix of N elements, as square as N allows (rows x cols), by a cols x cols
one, as the matmul puzzles' benchmark does, in true fp32 (TF32 off); mm_f16 the same in fp16 (on
the tensor cores, summed in fp32: matmul-tensor-cores's peer); sdpa is
torch.nn.functional.scaled_dot_product_attention in fp32 on 8 heads of d = 64 with q, k and v of N
elements each (N / 64 rows: 2^20 is 8 heads of 2048 queries and keys), as flash-attention's
benchmark, with the backend torch picks for fp32 (TF32 off)."""
import sys

NAMES = {"softmax": "torch.softmax", "layer_norm": "torch layer_norm", "sort": "torch.sort",
         "mm": "torch.mm fp32", "mm_f16": "torch.mm fp16", "sdpa": "torch sdpa fp32",
         "sdpa_causal": "torch sdpa causal", "mv": "torch.mv fp32", "spmv": "torch sparse csr mv",
         "conv2d": "torch conv2d fp32", "fft": "torch.fft.fft c64", "topk": "torch.topk",
         "sort_rows": "torch.sort rows", "int_mm": "torch._int_mm"}

# The families of issue 53, each as its puzzle's benchmark shapes it: N elements of the first
# input, then the shape's other numbers as KEY=VALUE words (cols=4096). Each returns the timed
# function and a description of the shape.


def family_peer(torch, op, n, opt):
    cuda = "cuda"
    if op == "mv":  # a [n / cols, cols] fp32 matrix times a vector
        cols = int(opt.get("cols", 4096))
        m = torch.randn(n // cols, cols, device=cuda)
        x = torch.randn(cols, device=cuda)
        return (lambda: torch.mv(m, x)), "%dx%d" % (n // cols, cols), 4.0 * n
    if op == "spmv":  # CSR, n nonzeros over rows of `per` nonzeros at random columns
        per = int(opt.get("per", 32))
        rows = n // per
        cols = rows
        crow = torch.arange(0, rows + 1, device=cuda, dtype=torch.int32) * per
        col = torch.randint(0, cols, (rows * per,), device=cuda, dtype=torch.int32)
        val = torch.randn(rows * per, device=cuda)
        a = torch.sparse_csr_tensor(crow, col, val, (rows, cols))
        x = torch.randn(cols, 1, device=cuda)
        return (lambda: torch.sparse.mm(a, x)), "%d rows of %d nonzeros" % (rows, per), 12.0 * n
    if op == "conv2d":  # one channel, a square-ish image of n floats, a k x k filter, "same"
        k = int(opt.get("k", 3))
        side = 1 << ((n.bit_length() - 1) // 2)
        img = torch.randn(1, 1, side, n // side, device=cuda)
        w = torch.randn(1, 1, k, k, device=cuda)
        f = torch.nn.functional.conv2d
        return (lambda: f(img, w, padding=k // 2)), "%dx%d, %dx%d filter" % (side, n // side, k, k), 8.0 * n
    if op == "fft":  # n floats: rows of `len` complex numbers
        length = int(opt.get("len", 1024))
        x = torch.randn(n // (2 * length), length, device=cuda, dtype=torch.complex64)
        return (lambda: torch.fft.fft(x)), "%d rows of %d complex" % (x.shape[0], length), 8.0 * n
    if op == "topk":  # rows of `cols` floats, the k largest of each
        cols, k = int(opt.get("cols", 1024)), int(opt.get("k", 8))
        x = torch.randn(n // cols, cols, device=cuda)
        return (lambda: torch.topk(x, k, dim=1)), "%dx%d, k = %d" % (n // cols, cols, k), 4.0 * n
    if op == "sort_rows":  # rows of `block` floats, each sorted
        block = int(opt.get("block", 1024))
        x = torch.randn(n // block, block, device=cuda)
        return (lambda: torch.sort(x, dim=1)), "%d rows of %d" % (n // block, block), 8.0 * n
    if op == "int_mm":  # a [n / words, 4 * words] int8 (n words of 4 bytes) times a square b
        words = int(opt.get("words", 256))
        rows, inner = n // words, 4 * words
        a = torch.randint(-128, 128, (rows, inner), device=cuda, dtype=torch.int8)
        b = torch.randint(-128, 128, (inner, inner), device=cuda, dtype=torch.int8)
        return (lambda: torch._int_mm(a, b)), "%dx%d @ %dx%d" % (rows, inner, inner, inner), 0
    if op == "sdpa_causal":  # as sdpa, is_causal=True
        torch.backends.cuda.matmul.allow_tf32 = False
        heads, d = 8, 64
        s = n // (heads * d)
        q, k, v = (torch.randn(1, heads, s, d, device=cuda) for _ in range(3))
        f = torch.nn.functional.scaled_dot_product_attention
        return (lambda: f(q, k, v, is_causal=True)), "%d heads of %dx%d" % (heads, s, d), 0
    return None


def timed(torch, f):
    for _ in range(3):
        f()
    times = []
    for _ in range(20):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        f()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    times.sort()
    return times[len(times) // 2], times[2], times[17]


def main():
    op, n = sys.argv[1], eval(sys.argv[2].replace("^", "**"))
    name = NAMES[op]
    width = 20 if op == "sort" else 16
    try:
        import torch
        assert torch.cuda.is_available()
    except Exception as e:
        print("%-*s not measured: %s" % (width, name, e))
        return
    opt = dict(w.split("=", 1) for w in sys.argv[3:])
    peer = family_peer(torch, op, n, opt)
    if peer:
        f, shape, moved = peer
        med, p10, p90 = timed(torch, f)
        rate = "  %7.1f GB/s" % (moved / (med * 1e-3) / 1e9) if moved else ""
        print("%-20s %s  median %8.3f ms (p10 %.3f, p90 %.3f)%s  (torch %s)"
              % (name, shape, med, p10, p90, rate, torch.__version__))
        return
    if op == "sort":
        wide = torch.randint(0, 2**32, (n,), device="cuda", dtype=torch.int64)
        try:
            x = wide.to(torch.uint32)
            torch.sort(x[:1024])
            del wide
        except Exception:
            x = wide
        med, p10, p90 = timed(torch, lambda: torch.sort(x))
        print("%-20s n %d  median %8.3f ms (p10 %.3f, p90 %.3f)  %s keys, indices returned too  (torch %s)"
              % (name, n, med, p10, p90, str(x.dtype).replace("torch.", ""), torch.__version__))
        return
    if op == "sdpa":
        torch.backends.cuda.matmul.allow_tf32 = False
        heads, d = 8, 64
        s = n // (heads * d)
        q, k, v = (torch.randn(1, heads, s, d, device="cuda") for _ in range(3))
        f = torch.nn.functional.scaled_dot_product_attention
        med, p10, p90 = timed(torch, lambda: f(q, k, v))
        gflops = 4.0 * heads * s * s * d / (med * 1e-3) / 1e9
        print("%-16s %d heads of %dx%d  median %8.3f ms (p10 %.3f, p90 %.3f)  %7.0f GFLOP/s  (torch %s)"
              % (name, heads, s, d, med, p10, p90, gflops, torch.__version__))
        return
    side = 1 << ((n.bit_length() - 1) // 2)
    if op in ("mm", "mm_f16"):
        torch.backends.cuda.matmul.allow_tf32 = False
        kind = torch.float16 if op == "mm_f16" else torch.float32
        a = torch.randn(side, n // side, device="cuda", dtype=kind)
        b = torch.randn(n // side, n // side, device="cuda", dtype=kind)
        med, p10, p90 = timed(torch, lambda: torch.mm(a, b))
        gflops = 2.0 * a.shape[0] * a.shape[1] * b.shape[1] / (med * 1e-3) / 1e9
        print("%-16s %dx%d  median %8.3f ms (p10 %.3f, p90 %.3f)  %7.0f GFLOP/s  (torch %s)"
              % (name, a.shape[0], a.shape[1], med, p10, p90, gflops, torch.__version__))
        return
    x = torch.randn(side, n // side, device="cuda")
    gamma = torch.randn(x.shape[1], device="cuda")
    beta = torch.randn(x.shape[1], device="cuda")
    if op == "softmax":
        f = lambda: torch.softmax(x, dim=1)
    else:
        f = lambda: torch.nn.functional.layer_norm(x, (x.shape[1],), gamma, beta, 1e-5)
    med, p10, p90 = timed(torch, f)
    gbs = 2.0 * 4 * x.numel() / (med * 1e-3) / 1e9
    print("%-16s %dx%d  median %8.3f ms (p10 %.3f, p90 %.3f)  %7.1f GB/s  (torch %s)"
          % (name, x.shape[0], x.shape[1], med, p10, p90, gbs, torch.__version__))


main()
