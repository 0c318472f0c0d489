// CUB's radix sort of n random uint32 keys (cub::DeviceRadixSort::SortKeys, all 32 bits), timed
// with CUDA events as bench/algorithms_track.sh prints it beside our radix-sort puzzle:
//   nvcc -O3 -o cub_radix_sort cub_radix_sort.cu && ./cub_radix_sort 268435456
#include <cub/cub.cuh>

#include "cuda_timing.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

constexpr const char* kName = "cub DeviceRadixSort";

int main(int argc, char** argv) {
    size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (size_t(1) << 28);
    std::vector<unsigned> host(n);
    std::mt19937 rng(384);
    for (unsigned& k : host)
        k = rng();
    unsigned *keys = nullptr, *sorted = nullptr;
    PEER_CHECK(kName, cudaMalloc(&keys, n * 4));
    PEER_CHECK(kName, cudaMalloc(&sorted, n * 4));
    PEER_CHECK(kName, cudaMemcpy(keys, host.data(), n * 4, cudaMemcpyHostToDevice));
    size_t tempBytes = 0;
    PEER_CHECK(kName, cub::DeviceRadixSort::SortKeys(nullptr, tempBytes, keys, sorted,
                                                     static_cast<int>(n)));
    void* temp = nullptr;
    PEER_CHECK(kName, cudaMalloc(&temp, tempBytes));
    std::vector<float> sort = timedMs([&] {
        cub::DeviceRadixSort::SortKeys(temp, tempBytes, keys, sorted, static_cast<int>(n));
    });
    std::vector<float> copy =
        timedMs([&] { cudaMemcpy(sorted, keys, n * 4, cudaMemcpyDeviceToDevice); });
    PEER_CHECK(kName,
               cub::DeviceRadixSort::SortKeys(temp, tempBytes, keys, sorted, static_cast<int>(n)));
    PEER_CHECK(kName, cudaDeviceSynchronize());
    std::vector<unsigned> back(n);
    PEER_CHECK(kName, cudaMemcpy(back.data(), sorted, n * 4, cudaMemcpyDeviceToHost));
    std::sort(host.begin(), host.end());
    bool right = back == host;
    printPeerLine(kName, n, sort, copy, right);
    return right ? 0 : 1;
}
