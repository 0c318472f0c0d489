// `vkpuzzles trace`: what every thread of one case did, as text and JSON.
#pragma once

#include <optional>
#include <ostream>

#include <nlohmann/json.hpp>

#include "cli/style.h"
#include "core/puzzle.h"
#include "core/trace_analysis.h"

namespace vkp::cli {

// Parses "X", "X,Y" or "X,Y,Z" (a thread's global id) into its invocation index.
std::optional<uint64_t> threadArg(const std::string& text, const TraceLaunch& launch);

void printFindings(std::ostream& os, const TraceAnalysis& a, const Style& st);
// The findings, traffic, shared memory per barrier round (of the thread's workgroup) and either
// one thread's accesses in full or a line per thread.
void printTrace(std::ostream& os, const Puzzle& p, const Trace& t, const TraceAnalysis& a,
                std::optional<uint64_t> thread, const Style& st);

nlohmann::json findingJson(const Trace& t, const Finding& f);
nlohmann::json traceJson(const Trace& t, const TraceAnalysis& a, std::optional<uint64_t> thread);

} // namespace vkp::cli
