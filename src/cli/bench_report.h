// What `vkpuzzles bench` prints: one benchmark's figures as text or JSON
// (docs/json-output.md), and the table of every official scan (`bench --all-scans`).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "bench/bench.h"
#include "cli/style.h"
#include "puzzle/puzzle.h"

namespace vkp::cli {

// One puzzle of `bench --all` or `--all-scans`: its benchmark, or why it has none; `notRun`:
// the device lacks what the official solution needs (listed, not a failure).
struct BenchRow {
    const Puzzle* puzzle = nullptr;
    Result<BenchReport> report;
    bool notRun = false;
};
using BenchRows = std::vector<BenchRow>;

nlohmann::json benchJson(const Puzzle& p, const std::string& files, const BenchReport& r);
// A row as `--json` gives it: benchJson, or {"puzzle", "error"} or {"puzzle", "not_run"}.
nlohmann::json benchRowJson(const BenchRow& row);
void printBench(std::ostream& out, const Style& style, const Puzzle& p, const BenchReport& r);
// One line per puzzle (its N, times, bandwidth, the fraction of the copy, elements per second,
// CPU / GPU, the verdict), then the copy at N and, for the scans, the CPU's sequential scan as
// rows of their own: the seeds' comparison in one table.
void printBenchTable(std::ostream& out, const Style& style, const BenchRows& rows, bool scans);

} // namespace vkp::cli
