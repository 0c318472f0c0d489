#include "cli/bench_report.h"

#include <algorithm>
#include <cstdio>

#include "cli/json_report.h"

namespace vkp::cli {

nlohmann::json benchJson(const Puzzle& p, const std::string& files, const BenchReport& r) {
    nlohmann::json passes = nlohmann::json::array();
    for (const BenchReport::Pass& pass : r.passes)
        passes.push_back({{"kernel", pass.label},
                          {"dispatches", pass.dispatches},
                          {"median_ms", pass.medianMs},
                          {"bytes_moved", pass.bytesMoved},
                          {"ratio_to_copy", pass.ratioToCopy}});
    nlohmann::json compiled = nlohmann::json::array();
    for (const BenchReport::Compiled& c : r.compiled) {
        nlohmann::json stats = nlohmann::json::object();
        for (const PipelineStat& st : c.stats)
            stats[st.name] = st.number ? nlohmann::json(*st.number) : nlohmann::json(st.value);
        compiled.push_back({{"kernel", c.kernel}, {"statistics", stats}});
    }
    nlohmann::json peers = nlohmann::json::array();
    for (const BenchPeer& peer : p.peers)
        peers.push_back(
            {{"name", peer.name},
             {"device", peer.device},
             {"n", peer.n},
             {"median_ms", peer.ms},
             {"date", peer.date},
             {"how", peer.how},
             {"ratio_to_peer",
              samePlaceAsPeer(peer, r) ? nlohmann::json(r.medianMs / peer.ms) : nlohmann::json()}});
    return {
        {"version", kJsonVersion},
        {"puzzle", p.slug},
        {"kernel", files},
        {"device", r.device},
        {"n", r.n},
        {"n_asked", r.nAsked ? r.nAsked : r.n},
        {"fixed_launch", r.fixedLaunch.empty() ? nlohmann::json() : nlohmann::json(r.fixedLaunch)},
        {"shape", r.shape},
        {"workgroup_size", r.workgroupSize},
        {"constants", r.constants},
        {"dispatch_ms", r.repetitionMs},
        {"median_ms", r.medianMs},
        {"p10_ms", r.p10Ms},
        {"p90_ms", r.p90Ms},
        {"bytes_moved", r.bytesMoved},
        {"gb_per_s", r.gbPerS},
        {"elements_per_s", r.elementsPerS},
        {"copy_gb_per_s", r.copyGbPerS},
        {"shader_copy_gb_per_s", r.shaderCopyGbPerS},
        {"ratio_to_copy", r.ratioToCopy},
        {"limit_ms", r.limitMs},
        {"pass_bytes_moved", r.passBytesMoved},
        {"ratio_to_pass_limit", r.ratioToPassLimit},
        {"pass_limit_ms", r.passLimitMs},
        {"flop", r.flop},
        {"gflop_per_s", r.gflopPerS},
        {"steady", r.unsteady.empty()},
        {"unsteady", r.unsteady.empty() ? nlohmann::json() : nlohmann::json(r.unsteady)},
        {"peers", peers},
        {"passes", passes},
        {"compiled", compiled},
        {"cpu_ms", r.cpuMs},
        {"cpu", r.cpuWhat},
        {"pass", r.pass},
        {"mismatches", r.mismatches}};
}

void printScanTable(std::ostream& out, const Style& style, const ScanBenchResults& results) {
    char line[256];
    const BenchReport* any = nullptr;
    for (const auto& [p, r] : results)
        if (r) any = &r.value();
    if (!any) return;
    out << style.bold("official scans, N = " + std::to_string(any->n) + " uints") << " on "
        << any->device << "\n";
    std::snprintf(line, sizeof line,
                  "  copy: %.1f GB/s (vkCmdCopyBuffer), %.1f GB/s (copy shader); CPU "
                  "sequential scan %.3f ms\n",
                  any->copyGbPerS, any->shaderCopyGbPerS, any->cpuMs);
    out << line;
    int width = 6;
    for (const auto& [p, r] : results)
        width = std::max(width, static_cast<int>(p->slug.size()));
    std::snprintf(line, sizeof line, "  %-*s %10s %15s %10s %10s %10s %10s  %s\n", width, "puzzle",
                  "ms", "p10-p90 ms", "GB/s", "/ copy", "G elem/s", "CPU / GPU", "result");
    out << line;
    for (const auto& [p, r] : results) {
        if (!r) {
            std::snprintf(line, sizeof line, "  %-*s ", width, p->slug.c_str());
            out << line << style.dim("not benchmarked: " + r.error().message) << "\n";
            continue;
        }
        char spread[64];
        std::snprintf(spread, sizeof spread, "%.3f-%.3f", r->p10Ms, r->p90Ms);
        std::snprintf(line, sizeof line, "  %-*s %10.3f %15s %10.1f %10.2f %10.3f %10.2f  ", width,
                      p->slug.c_str(), r->medianMs, spread, r->gbPerS, r->ratioToCopy,
                      r->elementsPerS / 1e9, r->medianMs > 0 ? r->cpuMs / r->medianMs : 0);
        out << line << (r->pass ? style.pass("right") : style.fail("WRONG")) << "\n";
    }
}
void printBench(std::ostream& out, const Style& style, const Puzzle& p, const BenchReport& r) {
    std::string matrix = r.shape.size() == 2 ? " (a " + std::to_string(r.shape[0]) + " x " +
                                                   std::to_string(r.shape[1]) + " matrix)"
                                             : "";
    out << style.bold("bench: " + std::to_string(r.n) + " elements" + matrix) << " on " << r.device
        << "\n";
    for (const std::string& line : benchFigureLines(r)) {
        // The driver's note is dim, as it was: it is its word, not ours.
        size_t note = line.find(" (the driver's report)");
        out << "  "
            << (note == std::string::npos ? line
                                          : line.substr(0, note) + style.dim(line.substr(note)))
            << "\n";
    }
    for (const std::string& line : benchPeerLines(p, r))
        out << "  " << line << "\n";
    out << "  result         "
        << (r.pass ? style.pass(benchResultText(r)) : style.fail(benchResultText(r))) << "\n";
}

} // namespace vkp::cli
