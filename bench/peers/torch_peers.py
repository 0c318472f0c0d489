"""PyTorch's kernels beside ours, for bench/algorithms_track.sh: one line per call, in the
script's format, with the median of 20 timed runs (after 3 warm-ups) by CUDA events.
    python3 torch_peers.py softmax|layer_norm|sort|mm|mm_f16|sdpa|sdpa_causal N
softmax and layer_norm run along the rows of a float matrix as square as N allows; sort sorts N
random uint32 keys (as int64 where this torch cannot sort uint32 on the GPU: twice the bytes);
mm multiplies a float32 matrix of N elements, as square as N allows (rows x cols), by a cols x cols
one, as the matmul puzzles' benchmark does, in true fp32 (TF32 off); mm_f16 the same in fp16 (on
the tensor cores, summed in fp32: matmul-tensor-cores's peer); sdpa is
torch.nn.functional.scaled_dot_product_attention in fp32 on 8 heads of d = 64 with q, k and v of N
elements each (N / 64 rows: 2^20 is 8 heads of 2048 queries and keys), as flash-attention's
benchmark, with the backend torch picks for fp32 (TF32 off); sdpa_causal the same with
is_causal=True (attention-causal's peer; its GFLOP/s count the causal half of the scores)."""
import sys

NAMES = {"softmax": "torch.softmax", "layer_norm": "torch layer_norm", "sort": "torch.sort",
         "mm": "torch.mm fp32", "mm_f16": "torch.mm fp16", "sdpa": "torch sdpa fp32",
         "sdpa_causal": "torch sdpa causal fp32"}


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
    if op in ("sdpa", "sdpa_causal"):
        torch.backends.cuda.matmul.allow_tf32 = False
        heads, d = 8, 64
        s = n // (heads * d)
        q, k, v = (torch.randn(1, heads, s, d, device="cuda") for _ in range(3))
        f = torch.nn.functional.scaled_dot_product_attention
        causal = op == "sdpa_causal"
        med, p10, p90 = timed(torch, lambda: f(q, k, v, is_causal=causal))
        gflops = (2.0 if causal else 4.0) * heads * s * s * d / (med * 1e-3) / 1e9
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
