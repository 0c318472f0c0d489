// CUB's radix sort of n random uint32 keys (cub::DeviceRadixSort::SortKeys, all 32 bits), timed
// with CUDA events as bench/algorithms_track.sh prints it beside our radix-sort puzzle:
//   nvcc -O3 -o cub_radix_sort cub_radix_sort.cu && ./cub_radix_sort 268435456
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e = (x);                                                                       \
        if (e != cudaSuccess) {                                                                    \
            std::printf("cub DeviceRadixSort  failed: %s (%s)\n", cudaGetErrorString(e), #x);     \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char** argv) {
    size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (size_t(1) << 28);
    std::vector<unsigned> host(n);
    std::mt19937 rng(384);
    for (unsigned& k : host)
        k = rng();
    unsigned *keys = nullptr, *sorted = nullptr;
    CHECK(cudaMalloc(&keys, n * 4));
    CHECK(cudaMalloc(&sorted, n * 4));
    CHECK(cudaMemcpy(keys, host.data(), n * 4, cudaMemcpyHostToDevice));
    size_t tempBytes = 0;
    CHECK(cub::DeviceRadixSort::SortKeys(nullptr, tempBytes, keys, sorted, static_cast<int>(n)));
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
    std::vector<float> sort = timed([&] {
        cub::DeviceRadixSort::SortKeys(temp, tempBytes, keys, sorted, static_cast<int>(n));
    });
    std::vector<float> copy =
        timed([&] { cudaMemcpy(sorted, keys, n * 4, cudaMemcpyDeviceToDevice); });
    CHECK(cub::DeviceRadixSort::SortKeys(temp, tempBytes, keys, sorted, static_cast<int>(n)));
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> back(n);
    CHECK(cudaMemcpy(back.data(), sorted, n * 4, cudaMemcpyDeviceToHost));
    std::sort(host.begin(), host.end());
    bool right = back == host;
    double med = sort[sort.size() / 2], copyMed = copy[copy.size() / 2];
    double gbs = 2.0 * 4 * n / (med * 1e-3) / 1e9, copyGbs = 2.0 * 4 * n / (copyMed * 1e-3) / 1e9;
    std::printf("%-20s n %zu  median %8.3f ms (p10 %.3f, p90 %.3f)  %7.1f GB/s  copy %6.0f GB/s  / "
                "copy %.3f  %s  (CUDA %d)\n",
                "cub DeviceRadixSort", n, med, sort[2], sort[17], gbs, copyGbs, gbs / copyGbs,
                right ? "right" : "WRONG", CUDART_VERSION);
    return right ? 0 : 1;
}
