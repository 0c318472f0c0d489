// The app's "Add a case": a learner's own cases of each puzzle, kept as the text they typed in
// own_cases.json in the user's data folder so that they come back after a restart, and built
// into the puzzle's case list (after its own cases) with puzzle/own_case.h.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "check/check.h"
#include "puzzle/own_case.h"
#include "puzzle/puzzle.h"

namespace vkp {

class OwnCaseStore {
  public:
    // Reads DIR/own_cases.json; an empty `dir` keeps nothing on disk (screenshots, tests).
    explicit OwnCaseStore(std::string dir);

    const std::vector<OwnCaseSpec>& specs(const std::string& puzzleFolder) const;
    void add(const std::string& puzzleFolder, OwnCaseSpec spec);
    void remove(const std::string& puzzleFolder,
                size_t index); // index among that puzzle's own cases
    // Writes the file atomically; the error says why it failed (the cases stay in memory).
    Status save() const;
    // Why the file could not be read at start (it was set aside), if it could not.
    const std::optional<std::string>& loadProblem() const { return m_loadProblem; }
    std::string path() const;

  private:
    std::string m_dir;
    std::map<std::string, std::vector<OwnCaseSpec>> m_specs;
    std::optional<std::string> m_loadProblem;
};

// Replaces the learner's cases of `puzzle` (those marked own) with ones built from `specs`, in
// order. A spec that no longer builds (the puzzle file changed) is left out, and its error is
// added to `problems`.
void applyOwnCases(Puzzle& puzzle, const std::vector<OwnCaseSpec>& specs,
                   std::vector<std::string>& problems);

// The form's field names in messages: "the values of a", "Workgroups", "SIZE".
std::string formFieldName(OwnCaseField field, const std::string& name);

// Every case of the puzzle file ran and passed (a learner's own cases never count).
bool puzzleCasesPass(const CheckReport& report, const Puzzle& puzzle);
// How many of the puzzle file's cases passed.
size_t puzzleCasesPassed(const CheckReport& report, const Puzzle& puzzle);

} // namespace vkp
