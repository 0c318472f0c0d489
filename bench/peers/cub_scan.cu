// CUB's inclusive scan of n uint32 (cub::DeviceScan::InclusiveSum), timed with CUDA events, for
// the scan track's peer (the [[peers]] of puzzles/17..21, and bench/speed_of_light.sh):
//   nvcc -O3 -o cub_scan cub_scan.cu && ./cub_scan 268435456
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e = (x);                                                                       \
        if (e != cudaSuccess) {                                                                    \
            std::printf("cub InclusiveSum  failed: %s (%s)\n", cudaGetErrorString(e), #x);        \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char** argv) {
    size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (size_t(1) << 28);
    std::vector<unsigned> host(n);
    for (size_t i = 0; i < n; ++i)
        host[i] = static_cast<unsigned>((i * 2654435761u) >> 7) & 255u; // small, varied values
    unsigned *in = nullptr, *out = nullptr;
    CHECK(cudaMalloc(&in, n * 4));
    CHECK(cudaMalloc(&out, n * 4));
    CHECK(cudaMemcpy(in, host.data(), n * 4, cudaMemcpyHostToDevice));
    size_t tempBytes = 0;
    CHECK(cub::DeviceScan::InclusiveSum(nullptr, tempBytes, in, out, static_cast<int>(n)));
    void* temp = nullptr;
    CHECK(cudaMalloc(&temp, tempBytes));
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    auto timed = [&](auto&& f) {
        std::vector<float> ms;
        for (int r = 0; r < 23; ++r) {
            cudaEventRecord(a);
            f();
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            float t = 0;
            cudaEventElapsedTime(&t, a, b);
            if (r >= 3) ms.push_back(t); // 3 warm-ups
        }
        std::sort(ms.begin(), ms.end());
        return ms;
    };
    std::vector<float> scan = timed(
        [&] { cub::DeviceScan::InclusiveSum(temp, tempBytes, in, out, static_cast<int>(n)); });
    std::vector<float> copy = timed([&] { cudaMemcpy(out, in, n * 4, cudaMemcpyDeviceToDevice); });
    CHECK(cub::DeviceScan::InclusiveSum(temp, tempBytes, in, out, static_cast<int>(n)));
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> back(n);
    CHECK(cudaMemcpy(back.data(), out, n * 4, cudaMemcpyDeviceToHost));
    bool right = true;
    unsigned running = 0;
    for (size_t i = 0; i < n && right; ++i)
        right = back[i] == (running += host[i]);
    double med = scan[scan.size() / 2], copyMed = copy[copy.size() / 2];
    double gbs = 2.0 * 4 * n / (med * 1e-3) / 1e9, copyGbs = 2.0 * 4 * n / (copyMed * 1e-3) / 1e9;
    std::printf("%-20s n %zu  median %8.3f ms (p10 %.3f, p90 %.3f)  %7.1f GB/s  copy %6.0f GB/s  / "
                "copy %.3f  %s  (CUDA %d)\n",
                "cub InclusiveSum", n, med, scan[2], scan[17], gbs, copyGbs, gbs / copyGbs,
                right ? "right" : "WRONG", CUDART_VERSION);
    return right ? 0 : 1;
}
