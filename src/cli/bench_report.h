// What `vkpuzzles bench` prints: one benchmark's figures as text or JSON
// (docs/json-output.md), and the table of every official scan (`bench --all-scans`).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "cli/style.h"
#include "puzzle/puzzle.h"
#include "session/bench.h"

namespace vkp::cli {

// Each scan puzzle with its benchmark, or why it has none.
using ScanBenchResults = std::vector<std::pair<const Puzzle*, Result<BenchReport>>>;

nlohmann::json benchJson(const Puzzle& p, const std::string& files, const BenchReport& r);
void printBench(std::ostream& out, const Style& style, const Puzzle& p, const BenchReport& r);
void printScanTable(std::ostream& out, const Style& style, const ScanBenchResults& results);

} // namespace vkp::cli
