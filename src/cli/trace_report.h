// `vkpuzzles trace`: what every thread of one case did, as text and JSON.
#pragma once

#include <optional>
#include <ostream>

#include <nlohmann/json.hpp>

#include "check/check.h"
#include "cli/style.h"
#include "judge/trace_analysis.h"
#include "puzzle/puzzle.h"

namespace vkp::cli {

// Parses "X", "X,Y" or "X,Y,Z" (a thread's global id) into its invocation index.
std::optional<uint64_t> threadArg(const std::string& text, const TraceLaunch& launch);

// A traced word as its variable's element type ("3", "-1.5").
std::string valueText(const Trace& t, uint32_t var, uint32_t word);
// One thread's accesses, numbered in program order; only those of `round` when given.
void printThread(std::ostream& os, const Trace& t, uint64_t inv, const Style& st,
                 std::optional<uint32_t> round = std::nullopt);

void printFindings(std::ostream& os, const TraceAnalysis& a, const Style& st);
// The findings, traffic, shared memory per barrier round (of the thread's workgroup) and either
// one thread's accesses in full or a line per thread.
void printTrace(std::ostream& os, const Puzzle& p, const Trace& t, const TraceAnalysis& a,
                std::optional<uint64_t> thread, const Style& st);

// debugPrintfEXT output (trace/debug_printf.h). A case's: every traced dispatch's lines grouped by
// thread, at most `maxLines` of them, then what was left out. One thread's: its lines only.
inline constexpr size_t kPrintfLinesShown = 200;
void printCasePrintf(std::ostream& os, const CaseOutcome& c, const Style& st,
                     size_t maxLines = kPrintfLinesShown);
void printThreadPrintf(std::ostream& os, const Trace& t, uint64_t inv, const Style& st);
// [{invocation, global_id, line, text}], by thread; and {"dropped": {invocation: lines}} beside.
nlohmann::json printfJson(const Trace& t, std::optional<uint64_t> thread = std::nullopt);
nlohmann::json casePrintfJson(const CaseOutcome& c);

nlohmann::json findingJson(const Trace& t, const Finding& f);
nlohmann::json eventJson(const Trace& t, const TraceEvent& e, uint64_t invocation);
nlohmann::json traceJson(const Trace& t, const TraceAnalysis& a, std::optional<uint64_t> thread);

} // namespace vkp::cli
