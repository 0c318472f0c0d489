// What `vkpuzzles bench` and the app say about a benchmark (bench/bench.h): its figures line by
// line, beside the official solution and the peers, its verdict, and the counts N is written as.
#include "bench/bench.h"

#include <bit>
#include <cstdio>

#include "puzzle/puzzle_loader.h"

namespace vkp {

// Floating-point operations a byte moved past which a kernel is bound by its arithmetic: GPUs do
// tens (an H200: 67 TFLOP/s of fp32 over 4.8 TB/s, 14 a byte; lavapipe on a CPU about as many).
constexpr double kArithmeticBound = 16;

std::vector<std::string> benchFigureLines(const BenchReport& r) {
    std::vector<std::string> out;
    char line[256];
    std::snprintf(line, sizeof line,
                  "kernel         %9.3f ms median of %zu  %8.2f GB/s  %8.3f G elements/s",
                  r.medianMs, r.repetitionMs.size(), r.gbPerS, r.elementsPerS / 1e9);
    out.push_back(line);
    std::snprintf(line, sizeof line, "spread         %9.3f ms to %.3f ms (10th to 90th percentile)",
                  r.p10Ms, r.p90Ms);
    out.push_back(line);
    // A launch that does not follow N ran at the case's own: say so where the figures are read.
    if (!r.fixedLaunch.empty())
        out.push_back(
            "fixed launch   " + r.fixedLaunch + ": timed at its own N = " + std::to_string(r.n) +
            (r.nAsked && r.nAsked != r.n ? ", not the " + countText(r.nAsked) + " asked" : ""));
    out.push_back("launch         workgroups of " + dimsText(r.workgroupSize) + " threads" +
                  (r.constants.empty() ? "" : "; " + r.constants));
    std::snprintf(line, sizeof line,
                  "copy           %8.2f GB/s (vkCmdCopyBuffer), %8.2f GB/s (copy shader)",
                  r.copyGbPerS, r.shaderCopyGbPerS);
    out.push_back(line);
    bool mega = r.bytesMoved >= 1000000;
    std::snprintf(line, sizeof line,
                  "of the limit   %9.2f  (the %.1f %s it must move take %.3f ms at the copy's "
                  "speed)",
                  r.ratioToCopy, r.bytesMoved / (mega ? 1e6 : 1e3), mega ? "MB" : "kB", r.limitMs);
    out.push_back(line);
    if (r.passBytesMoved > r.bytesMoved) {
        // The task's bytes say how far a multi-pass program is from one pass over its data; the
        // passes' say how far each pass, as written, is from the copy's speed.
        mega = r.passBytesMoved >= 1000000;
        std::snprintf(line, sizeof line,
                      "its passes     %9.2f  (each dispatch reads or writes each input and output "
                      "it binds once: %.1f %s, %.3f ms at the copy's speed)",
                      r.ratioToPassLimit, r.passBytesMoved / (mega ? 1e6 : 1e3), mega ? "MB" : "kB",
                      r.passLimitMs);
        out.push_back(line);
    }
    if (r.flop > 0) {
        double perByte = r.bytesMoved ? r.flop / r.bytesMoved : 0;
        std::snprintf(line, sizeof line,
                      "arithmetic     %9.1f GFLOP/s (%.3g GFLOP, %.0f for each byte moved)",
                      r.gflopPerS, r.flop / 1e9, perByte);
        out.push_back(line);
        // A device does tens of operations in the time it moves a byte: past that, arithmetic
        // bounds the kernel and the memory limit above is far from its own.
        if (perByte >= kArithmeticBound)
            out.push_back("               arithmetic bounds this kernel, not memory: the fraction "
                          "of the limit says little; GFLOP/s and the peer's time say more");
    }
    if (!r.unsteady.empty())
        out.push_back("unsteady       " + r.unsteady +
                      ": not to be trusted, and no sign of a slow kernel; run it again on a "
                      "quiet machine");
    for (const BenchReport::Pass& pass : r.passes) {
        std::snprintf(line, sizeof line, "  pass %-16s %9.3f ms (%d %s)", pass.label.c_str(),
                      pass.medianMs, pass.dispatches,
                      pass.dispatches == 1 ? "dispatch" : "dispatches");
        std::string text = line;
        if (pass.bytesMoved > 0) {
            std::snprintf(line, sizeof line, "  %5.2f of its limit", pass.ratioToCopy);
            text += line;
        }
        out.push_back(text);
    }
    for (const BenchReport::Compiled& c : r.compiled) {
        std::string stats;
        for (const PipelineStat& st : c.stats)
            stats += (stats.empty() ? "" : ", ") + st.name + " " + st.value;
        out.push_back("compiled       " + (r.compiled.size() > 1 ? c.kernel + ": " : "") + stats +
                      " (the driver's report)");
    }
    if (!r.cpuWhat.empty()) {
        std::snprintf(line, sizeof line,
                      "CPU            %9.3f ms (%s); CPU time / kernel time %.2f", r.cpuMs,
                      r.cpuWhat.c_str(), r.medianMs > 0 ? r.cpuMs / r.medianMs : 0);
        out.push_back(line);
    }
    return out;
}

std::vector<std::string> benchComparisonLines(const BenchReport& yours,
                                              const BenchReport& official) {
    std::vector<std::string> out;
    char line[256];
    auto row = [&](const char* who, const BenchReport& r) {
        std::snprintf(line, sizeof line, "%-14s %9.3f ms  %5.2f of the limit%s", who, r.medianMs,
                      r.ratioToCopy, r.unsteady.empty() ? "" : "  (unsteady)");
        out.push_back(line);
    };
    row("yours", yours);
    row("official", official);
    if (yours.medianMs > 0 && official.medianMs > 0) {
        double ratio = yours.medianMs / official.medianMs;
        std::snprintf(line, sizeof line,
                      "               yours takes %.2fx the official solution's time%s", ratio,
                      ratio > 1.1   ? ""
                      : ratio < 0.9 ? ": faster than the official solution"
                                    : ": as fast as the official solution");
        out.push_back(line);
    }
    return out;
}

bool samePlaceAsPeer(const BenchPeer& peer, const BenchReport& r) {
    return r.device.find(peer.device) != std::string::npos && r.n == peer.n;
}

std::vector<std::string> benchPeerLines(const Puzzle& puzzle, const BenchReport& r) {
    std::vector<std::string> out;
    char line[512];
    for (const BenchPeer& peer : puzzle.peers) {
        std::snprintf(line, sizeof line, "peer           %s: %.3f ms on %s at N = %llu (%s)",
                      peer.name.c_str(), peer.ms, peer.device.c_str(),
                      static_cast<unsigned long long>(peer.n), peer.date.c_str());
        std::string text = line;
        if (samePlaceAsPeer(peer, r)) {
            std::snprintf(line, sizeof line, ": this kernel takes %.2fx its time",
                          r.medianMs / peer.ms);
            text += line;
        } else if (r.device.find(peer.device) != std::string::npos) {
            text += ": bench at --n " + countText(peer.n) + " to compare";
        } else {
            text += ", another device";
        }
        out.push_back(text);
    }
    return out;
}

std::string benchResultText(const BenchReport& r) {
    if (r.pass) return "matches the CPU reference";
    return std::to_string(r.mismatches) + " elements differ from the CPU reference, the first at " +
           std::to_string(r.firstMismatch);
}

} // namespace vkp
