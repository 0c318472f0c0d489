// What the CUDA peers (cub_*.cu) share: stopping with the CUDA error's name, and timing a call with
// CUDA events as bench/peers/torch_peers.py does (3 warm-ups, then 20 timed runs, sorted).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

// Returns 1 from main with "NAME failed: the error (the call)" when a CUDA call fails.
#define PEER_CHECK(name, x)                                                                        \
    do {                                                                                           \
        cudaError_t e = (x);                                                                       \
        if (e != cudaSuccess) {                                                                    \
            std::printf("%-20s failed: %s (%s)\n", name, cudaGetErrorString(e), #x);               \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

// The milliseconds of 20 runs of f after 3 untimed ones, fastest first.
template <class F> std::vector<float> timedMs(F&& f) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<float> ms;
    for (int r = 0; r < 23; ++r) {
        cudaEventRecord(a);
        f();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float t = 0;
        cudaEventElapsedTime(&t, a, b);
        if (r >= 3) ms.push_back(t);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::sort(ms.begin(), ms.end());
    return ms;
}

// One line in bench/algorithms_track.sh's format: median, spread, GB/s counted as one read and
// one write of n uint32, the device-to-device copy of the same bytes, and the verdict.
inline void printPeerLine(const char* name, size_t n, const std::vector<float>& ms,
                          const std::vector<float>& copy, bool right) {
    double med = ms[ms.size() / 2], copyMed = copy[copy.size() / 2];
    double gbs = 2.0 * 4 * n / (med * 1e-3) / 1e9, copyGbs = 2.0 * 4 * n / (copyMed * 1e-3) / 1e9;
    std::printf("%-20s n %zu  median %8.3f ms (p10 %.3f, p90 %.3f)  %7.1f GB/s  copy %6.0f GB/s  / "
                "copy %.3f  %s  (CUDA %d)\n",
                name, n, med, ms[2], ms[17], gbs, copyGbs, gbs / copyGbs, right ? "right" : "WRONG",
                CUDART_VERSION);
}
