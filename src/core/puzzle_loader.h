// Reads puzzle folders (puzzle.toml + kernels) into validated Puzzle values.
#pragma once

#include <string>
#include <vector>

#include "core/puzzle.h"
#include "core/result.h"
#include "core/text_file.h" // readTextFile, for the loaders' users

namespace vkp {

// Hard caps that catch absurd puzzle files before they reach a device.
inline constexpr uint64_t kMaxBufferElements = 1ull << 28;
inline constexpr uint64_t kMaxWorkgroupThreads = 1024;
inline constexpr uint32_t kMaxWorkgroupsPerDim = 65535;

// Loads one puzzle folder. Every error names puzzle.toml's line and column.
Result<Puzzle> loadPuzzle(const std::string& dir);

// Loads the same from TOML text (for tests and fuzzing); `file` names it in messages.
Result<Puzzle> parsePuzzle(const std::string& text, const std::string& file,
                           const std::string& dir);

// Every puzzle folder under a root; one bad puzzle does not hide the others.
struct PuzzleSet {
    std::string root;
    std::vector<Puzzle> puzzles; // sorted by track (classic first), then order
    std::vector<Error> errors;   // one per folder that did not load
    std::vector<Error> warnings; // loaded, but two folders share a slug, a number or an order

    // By folder name ("01-map"), slug ("map") or number ("1"); NotFound lists close names.
    Result<const Puzzle*> find(const std::string& name) const;
};

PuzzleSet loadPuzzleSet(const std::string& root);

// One buffer's data written as a TOML inline table, as in a case's `inputs.NAME`
// ({ shape = [8], fill = "iota" }), read by the loader's own parser. `what` names it in messages.
Result<DataSpec> parseDataTable(const std::string& text, const std::string& what);

// A zero-filled scratch buffer sized by its `size` expression.
DataSpec sizedScratch(const Expr& size, const ExprVars& vars);

} // namespace vkp
