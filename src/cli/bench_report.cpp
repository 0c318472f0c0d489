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

nlohmann::json benchRowJson(const BenchRow& row) {
    if (row.report) return benchJson(*row.puzzle, "--solution", row.report.value());
    return {{"puzzle", row.puzzle->slug},
            {row.notRun ? "not_run" : "error", row.report.error().message}};
}

namespace {

// One row of the table: what was timed, at which N, and how fast.
struct TableLine {
    std::string what, n, spread, result;
    double ms = 0, gbPerS = 0, ratio = 0, elementsPerS = 0, cpuRatio = 0;
};

std::string figure(double v, const char* format) {
    if (v <= 0) return "-";
    char text[32];
    std::snprintf(text, sizeof text, format, v);
    return text;
}

void printLine(std::ostream& out, int width, const TableLine& t, const std::string& result) {
    char line[256];
    std::snprintf(line, sizeof line, "  %-*s %6s %10s %15s %9s %7s %9s %9s  ", width,
                  t.what.c_str(), t.n.c_str(), figure(t.ms, "%.3f").c_str(), t.spread.c_str(),
                  figure(t.gbPerS, "%.1f").c_str(), figure(t.ratio, "%.2f").c_str(),
                  figure(t.elementsPerS / 1e9, "%.3f").c_str(), figure(t.cpuRatio, "%.2f").c_str());
    out << line << result << "\n";
}

} // namespace

void printBenchTable(std::ostream& out, const Style& style, const BenchRows& rows, bool scans) {
    // The copy and the CPU run at the N asked: from a row that ran there (not a fixed launch).
    const BenchReport* atN = nullptr;
    for (const BenchRow& row : rows)
        if (row.report && row.report->fixedLaunch.empty()) atN = &row.report.value();
    int width = 24;
    for (const BenchRow& row : rows)
        width = std::max(width, static_cast<int>(row.puzzle->slug.size()));
    std::string device = atN ? atN->device : "";
    for (const BenchRow& row : rows)
        if (device.empty() && row.report) device = row.report->device;
    out << style.bold(scans ? "official scans" : "official solutions")
        << (atN ? ", N = " + countText(atN->n) + " elements" : "")
        << (device.empty() ? "" : " on " + device) << "\n";
    char header[256];
    std::snprintf(header, sizeof header, "  %-*s %6s %10s %15s %9s %7s %9s %9s  %s\n", width,
                  "puzzle", "N", "ms", "p10-p90 ms", "GB/s", "/ copy", "G elem/s", "CPU / GPU",
                  "result");
    out << header;
    std::vector<std::string> notes;
    bool unsteady = false;
    for (const BenchRow& row : rows) {
        const std::string& slug = row.puzzle->slug;
        if (!row.report) {
            std::string why =
                (row.notRun ? "not run: " : "not benchmarked: ") + row.report.error().message;
            out << "  " << slug << std::string(width - slug.size() + 1, ' ')
                << (row.notRun ? style.dim(why) : style.fail(why)) << "\n";
            continue;
        }
        const BenchReport& r = row.report.value();
        TableLine t{slug, countText(r.n), figure(r.p10Ms, "%.3f") + "-" + figure(r.p90Ms, "%.3f")};
        t.ms = r.medianMs, t.gbPerS = r.gbPerS, t.ratio = r.ratioToCopy;
        t.elementsPerS = r.elementsPerS, t.cpuRatio = r.medianMs > 0 ? r.cpuMs / r.medianMs : 0;
        // A row whose repetitions (or copy) disagree is marked: a figure not to publish as is.
        printLine(out, width, t,
                  (r.pass ? style.pass("right") : style.fail("WRONG")) +
                      (r.unsteady.empty() ? "" : style.warn(", unsteady")));
        if (!r.fixedLaunch.empty()) notes.push_back(r.fixedLaunch + ": timed at its own N");
        unsteady = unsteady || !r.unsteady.empty();
    }
    if (atN) {
        // The yardsticks at the same N: the copy of N uints (read and written), and the CPU.
        double bytes = 2.0 * atN->n * 4;
        for (auto [what, gb] : {std::pair{"copy (vkCmdCopyBuffer)", atN->copyGbPerS},
                                std::pair{"copy (copy shader)", atN->shaderCopyGbPerS}}) {
            double ms = gb > 0 ? bytes / (gb * 1e6) : 0;
            TableLine t{what, countText(atN->n), "", ""};
            t.ms = ms, t.gbPerS = gb;
            t.ratio = gb / std::max(atN->copyGbPerS, atN->shaderCopyGbPerS);
            t.elementsPerS = ms > 0 ? atN->n / (ms / 1e3) : 0;
            printLine(out, width, t, "");
        }
        if (scans && atN->cpuMs > 0) {
            TableLine t{"CPU sequential scan", countText(atN->n), "", ""};
            t.ms = atN->cpuMs, t.elementsPerS = atN->n / (atN->cpuMs / 1e3);
            printLine(out, width, t, "");
        }
    }
    for (const std::string& note : notes)
        out << style.dim("  " + note) << "\n";
    if (unsteady)
        out << style.dim("  unsteady: the repetitions, or the copy's, vary by more than 1.2x "
                         "(slowest tenth over fastest): measure again on a quiet machine")
            << "\n";
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
