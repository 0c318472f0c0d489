// CUB's inclusive scan of n uint32 (cub::DeviceScan::InclusiveSum), timed with CUDA events, for
// the scan track's peer (scan-decoupled's [[peers]], and bench/speed_of_light.sh):
//   nvcc -O3 -o cub_scan cub_scan.cu && ./cub_scan 268435456
#include <cub/cub.cuh>

#include "cuda_timing.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr const char* kName = "cub InclusiveSum";

int main(int argc, char** argv) {
    size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (size_t(1) << 28);
    std::vector<unsigned> host(n);
    for (size_t i = 0; i < n; ++i)
        host[i] = static_cast<unsigned>((i * 2654435761u) >> 7) & 255u; // small, varied values
    unsigned *in = nullptr, *out = nullptr;
    PEER_CHECK(kName, cudaMalloc(&in, n * 4));
    PEER_CHECK(kName, cudaMalloc(&out, n * 4));
    PEER_CHECK(kName, cudaMemcpy(in, host.data(), n * 4, cudaMemcpyHostToDevice));
    size_t tempBytes = 0;
    PEER_CHECK(kName,
               cub::DeviceScan::InclusiveSum(nullptr, tempBytes, in, out, static_cast<int>(n)));
    void* temp = nullptr;
    PEER_CHECK(kName, cudaMalloc(&temp, tempBytes));
    std::vector<float> scan = timedMs(
        [&] { cub::DeviceScan::InclusiveSum(temp, tempBytes, in, out, static_cast<int>(n)); });
    std::vector<float> copy =
        timedMs([&] { cudaMemcpy(out, in, n * 4, cudaMemcpyDeviceToDevice); });
    PEER_CHECK(kName, cub::DeviceScan::InclusiveSum(temp, tempBytes, in, out, static_cast<int>(n)));
    PEER_CHECK(kName, cudaDeviceSynchronize());
    std::vector<unsigned> back(n);
    PEER_CHECK(kName, cudaMemcpy(back.data(), out, n * 4, cudaMemcpyDeviceToHost));
    bool right = true;
    unsigned running = 0;
    for (size_t i = 0; i < n && right; ++i)
        right = back[i] == (running += host[i]);
    printPeerLine(kName, n, scan, copy, right);
    return right ? 0 : 1;
}
