// Reads puzzle folders (puzzle.toml + kernels) into validated Puzzle values.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "base/text_file.h" // readTextFile, for the loaders' users
#include "puzzle/puzzle.h"

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

// A folder of puzzle folders given with --puzzles, added beside the built-in puzzles.
struct PuzzlePack {
    std::string name; // the folder's name ("-2" appended when two packs share one); keys drafts
    std::string root; // absolute
};

// Every puzzle folder under the built-in root and under each pack; one bad puzzle does not hide
// the others.
struct PuzzleSet {
    std::string root;              // the built-in puzzles' folder
    std::vector<PuzzlePack> packs; // in the order given
    std::vector<Puzzle> puzzles;   // the built-in ones, then each pack's; each sorted by track
                                   // (classic first), then order
    std::vector<Error> errors;     // one per folder that did not load
    std::vector<Error>
        warnings; // loaded, but two folders of one pack share a slug, a number or an order

    // By folder name ("01-map"), slug ("map") or number ("1"), looked up in the packs first (in
    // the order given), then among the built-in puzzles; "PACK/NAME" looks in that pack only.
    // NotFound lists close names.
    Result<const Puzzle*> find(const std::string& name) const;
    // The puzzles a command about "all of them" means: the packs' when packs were given (a
    // teacher checking their pack), else the built-in ones.
    std::vector<const Puzzle*> inScope() const;
};

PuzzleSet loadPuzzleSet(const std::string& root);
// The built-in puzzles under `root` and each pack in `packs`. A pack that is the built-in folder
// itself, or given twice, is loaded once.
PuzzleSet loadPuzzleSet(const std::string& root, const std::vector<std::string>& packs);

// A fingerprint of the files in a puzzle's folder (names, sizes, modification times): it changes
// when an author saves puzzle.toml, a kernel or the walkthrough, so a running app can reload it.
uint64_t puzzleFilesStamp(const std::string& dir);

// One buffer's data written as a TOML inline table, as in a case's `inputs.NAME`
// ({ shape = [8], fill = "iota" }), read by the loader's own parser. `what` names it in messages.
Result<DataSpec> parseDataTable(const std::string& text, const std::string& what);

// A zero-filled scratch buffer sized by its `size` expression.
DataSpec sizedScratch(const Expr& size, const ExprVars& vars);

} // namespace vkp
