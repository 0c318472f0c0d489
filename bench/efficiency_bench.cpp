// What the efficiency lens costs: analyzeEfficiency on a synthetic trace of about one million
// events mixing the patterns it judges (contiguous and strided global reads, a column of a shared
// tile, a padded tile, a divergent branch, repeated reads, atomics on one address). Prints the
// median over 5 runs; the goal is under 200 ms (Release build).
//   vkp_efficiency_bench [EVENTS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "judge/efficiency.h"

using namespace vkp;
using Clock = std::chrono::steady_clock;

namespace {

Trace syntheticTrace(uint64_t target) {
    constexpr uint32_t kPerThread = 14, kGroup = 256; // events per thread, on average
    Trace t;
    t.launch = {{kGroup, 1, 1}, {static_cast<uint32_t>(target / (kGroup * kPerThread)) + 1, 1, 1}};
    uint64_t n = t.launch.invocations();
    TraceVariableInfo a{{"a", false, 0, 0, {}, ElementKind::Float}, n * 32, {}, 0};
    TraceVariableInfo out{{"out", false, 0, 1, {}, ElementKind::Float}, n * 32, {}, 1};
    TraceVariableInfo hist{{"hist", false, 0, 2, {}, ElementKind::Uint}, 16, {}, 2};
    TraceVariableInfo tile{{"tile", true, 0, 0, {}, ElementKind::Float}, 32 * 33, {32, 33}, -1};
    t.variables = {a, out, hist, tile};
    t.threads.resize(n);
    for (uint64_t inv = 0; inv < n; ++inv) {
        auto& ev = t.threads[inv];
        uint32_t local = static_cast<uint32_t>(inv % kGroup), i = static_cast<uint32_t>(inv);
        uint32_t tx = local % 32, ty = local / 32;
        auto add = [&](TraceEventKind k, uint32_t var, uint32_t line, uint32_t index, uint32_t round) {
            ev.push_back({k, var, line, index, 1, 0, round});
        };
        add(TraceEventKind::Read, 0, 10, i, 0);                         // contiguous
        add(TraceEventKind::Write, 3, 11, tx * 33 + ty, 0);             // padded column
        add(TraceEventKind::Write, 3, 12, tx * 32 + ty, 0);             // 32-way column
        add(TraceEventKind::Barrier, kTraceVariableNone, 13, 0, 0);
        for (uint32_t k = 0; k < 4; ++k) add(TraceEventKind::Read, 3, 14, ty * 33 + tx, 1);
        add(TraceEventKind::Write, 1, 15, i * 32 % uint32_t(n * 32), 1); // strided by 32 floats
        if (tx % 2 == 0) {                                              // divergent branch
            add(TraceEventKind::Read, 0, 17, i, 1);
            add(TraceEventKind::Read, 0, 17, i, 1);                     // repeated reads
        }
        add(TraceEventKind::Atomic, 2, 19, 5, 1);                       // one address
        for (uint32_t k = 0; k < 3; ++k) add(TraceEventKind::Read, 0, 20, i * 2 % uint32_t(n * 32), 1);
    }
    return t;
}

double median(std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    uint64_t events = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
    Trace t = syntheticTrace(events);
    std::vector<double> ms;
    size_t lines = 0;
    for (int r = 0; r < 5; ++r) {
        auto start = Clock::now();
        EfficiencyReport e = analyzeEfficiency(t);
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        lines = e.lines.size();
    }
    std::printf("efficiency of a synthetic trace: %llu events, %llu threads, median %.1f ms over 5 runs "
                "(goal < 200 ms), %zu costly lines\n",
                static_cast<unsigned long long>(t.eventCount()), static_cast<unsigned long long>(t.threads.size()),
                median(ms), lines);
    return 0;
}
