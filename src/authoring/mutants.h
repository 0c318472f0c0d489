// Mutants of a kernel's source text: the ways learners go wrong (a barrier dropped, the local id
// for the global one, < for <=, a guard removed, an index off by one, a size hard-coded...),
// applied to an official solution so `pack check` can tell whether the puzzle's cases catch them.
// Pure text: a small comment- and string-aware GLSL scanner, no compiler.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace vkp {

enum class MutationKind {
    BarrierRemoved, // a `barrier();` or `memoryBarrierShared();` statement deleted
    LocalForGlobal, // gl_GlobalInvocationID -> gl_LocalInvocationID
    SwapXY,         // 2-D puzzles: .x <-> .y (.xy <-> .yx) on a gl_ built-in
    Comparison,     // < <-> <=, > <-> >=
    GuardRemoved,   // `if (COND)` with a <, <=, > or >= in COND and no else: COND -> true
    IndexOffset,    // a[e] -> a[e + 1] and a[e - 1]
    HardcodedSize,  // NAME.length(), a puzzle constant, gl_WorkGroupSize.x/y or
                    // gl_NumWorkGroups.x/y -> its value in the first case
    PlusTimes,      // binary + <-> *
    LoopBound,      // for (...; i < B; ...) with B not already the workgroup size:
                    // B -> gl_WorkGroupSize.x
    LastDistance,   // a loop over doubling (halving) distances skips its last distance:
                    // for (...; d < B; d *= 2) -> (d << 1) < B; d > B with d /= 2 -> (d >> 1) > B
};

const char* mutationKindName(MutationKind kind); // "barrier-removed", as in mutants.toml
std::optional<MutationKind> mutationKindFromName(const std::string& name);
std::string mutationKindNames(); // "barrier-removed, local-for-global, ..." for messages

// What the mutations need to know about the puzzle (from its first case).
struct MutationContext {
    // A buffer's element count (for NAME.length()) and a constant's value, by name.
    std::map<std::string, uint64_t> lengths;
    std::map<std::string, uint64_t> constants;
    std::array<uint32_t, 3> workgroupSize{1, 1, 1};
    std::array<uint32_t, 3> workgroups{1, 1, 1};
    bool twoD = false; // the puzzle is 2-D: x/y swaps are tried
};

struct Mutant {
    MutationKind kind = MutationKind::Comparison;
    int line = 0;         // 1-based line of the change in the original source
    std::string lineText; // that line as written, trimmed
    std::string before;   // the original text that changed ("barrier();", "<", "a[i]")
    std::string after;    // what replaced it ("" when deleted)
    std::string text;     // the whole mutated source
};

// Every mutant of `source`, in source order; mutants whose text equals the source or an earlier
// mutant's are left out. Only code inside function bodies is mutated (never declarations,
// layouts, comments, strings or preprocessor lines).
std::vector<Mutant> makeMutants(const std::string& source, const MutationContext& context);

// The author's next step when a mutant of this kind survives, naming the line.
std::string mutationAdvice(MutationKind kind, int line);

// "a[i]" -> "a[i + 1]", "barrier();" -> (removed): how a report names the change.
std::string mutationChangeText(const Mutant& m);
// The changed line as the mutant has it (m.line of m.text), trimmed: what tells apart two
// mutants of one kind on one line (mutants.toml's `mutated`).
std::string mutatedLine(const Mutant& m);

// A mutant the author says no case can kill (mutants.toml in the puzzle folder).
struct EquivalentMutant {
    std::string kernel; // a kernel's name; empty: every kernel
    MutationKind kind = MutationKind::Comparison;
    std::string line; // the line's text (whitespace runs count as one space)
    std::string before, after;
    // Optional: the line as the mutant has it, for a line where `before` occurs more than once
    // (`e < n && c + lane < tileSize`: which `<` became `<=`). Empty: any occurrence.
    std::string mutated;
    // Optional: equivalent only on a device whose subgroups have this many lanes (a mutant that a
    // wider subgroup kills); elsewhere it is run like any other. 0: on every device.
    uint32_t subgroupSize = 0;
    // Optional: equivalent only on a device whose name contains this ("llvmpipe": lavapipe starts
    // a function's arrays at zero and keeps an index past one inside it, so a mutant that breaks
    // either passes there and fails on a GPU); elsewhere it is run like any other. Empty: every
    // device.
    std::string device;
    std::string why;
    SourceLocation where; // the [[equivalent]] table in mutants.toml
};

// mutants.toml: [[equivalent]] tables with kind, line, before, after, why (and kernel for a
// multi-pass puzzle, mutated, subgroup_size, device). Errors name the file's line. A missing file
// is an empty list.
Result<std::vector<EquivalentMutant>> loadEquivalentMutants(const std::string& dir);

// Whether `m` of `kernel` is the mutant `e` describes.
bool matchesEquivalent(const EquivalentMutant& e, const std::string& kernel, const Mutant& m);
// Whether `m` of `kernel` is on the line `e` names (whatever its kind and change).
bool onEquivalentsLine(const EquivalentMutant& e, const std::string& kernel, const Mutant& m);
// Whether two entries describe the same mutants (a copy left in the file).
bool sameEquivalent(const EquivalentMutant& a, const EquivalentMutant& b);

} // namespace vkp
