// Which case `vkpuzzles bench` times, chosen on purpose: the one the puzzle names (bench_case),
// else one derived from the cases' shape expressions, never whichever case happens to be last
// (a small case written value by value, added at the end to catch a mistake, cannot be scaled).
#pragma once

#include <optional>
#include <string>

#include "base/result.h"
#include "puzzle/puzzle.h"

namespace vkp {

// Whether the case's launch follows its data: some workgroup count is an expression of N, rows
// or cols (directly or through a constant that is), or the puzzle is multi-pass (its passes'
// counts are expressions). A launch that does not (one workgroup) is fixed: the benchmark runs
// such a case as it is, at its own N.
bool launchFollowsN(const Puzzle& p, const TestCase& c);

// Why the case's data cannot be generated again at another N (nullopt: it can): its first input,
// or an expected output, is written out value by value.
std::optional<std::string> dataFixedAt(const Puzzle& p, const TestCase& c);

// Whether the benchmark can time the case at any N: its launch follows N and its data can be
// generated at N, and students may see it (the benchmark prints the case's shape).
bool scalesToAnyN(const Puzzle& p, const TestCase& c);

// The case the benchmark times when the puzzle names none (0-based, among the puzzle's own cases):
// of the cases that scale to any N, the one with the most threads per workgroup (the shape
// closest to real use); where none scales, the visible case with the most threads, then the most
// elements (the largest run of a fixed launch). Ties go to the later case.
size_t deriveBenchCase(const Puzzle& p);

// Case `templateCase` generated again at N elements of its first input (a matrix as square as N
// allows, or with the puzzle's bench_cols): inputs that follow it, scratch sizes, workgroup counts
// and constants re-evaluated at N and its workgroup size, expected outputs from their reference
// ops. A case whose launch is fixed comes back as it is.
Result<TestCase> caseAtSize(const Puzzle& p, size_t templateCase, uint64_t n);

// Parses "2^28", "268435456" or "1<<20".
Result<uint64_t> parseCount(const std::string& text);
// A count as parseCount reads it back: "2^28" for a power of two, else the number.
std::string countText(uint64_t n);

} // namespace vkp
