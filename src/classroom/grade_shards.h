// A class split across machines: `grade ... --shard K/N` grades the K-th of N shares of the
// submissions, and `grade --merge FILES...` puts the shares' results back together as one run
// over the whole class would have graded it. What a run graded, with what it needs to be merged,
// is a GradedClass; the files it is written to and read back from are the gradebook's.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "classroom/grade.h"

namespace vkp {

// Share `index` of `count` (1-based): `--shard 2/5`.
struct Share {
    size_t index = 1;
    size_t count = 1;
};

// The submissions of share `share`: those at positions index-1, index-1+count, ... of `sorted`
// (in name order, as findSubmissions returns them). The order does not depend on how a folder
// lists its entries, so every machine grading a copy of the class picks the same submissions,
// and the shares' sizes differ by one at most.
std::vector<Submission> shareOf(const std::vector<Submission>& sorted, Share share);
// How many of a class of `classSize` submissions share `share` holds.
size_t shareSize(size_t classSize, Share share);

// A class's submissions, named in order (16 hex digits): two shares graded from folders that
// held different submissions differ here.
std::string classFingerprint(const std::vector<Submission>& submissions);
// A puzzle as graded: its puzzle.toml's text, line ends aside (16 hex digits; "" when it cannot
// be read). Two shares graded with different cases, points or expected values differ here.
std::string puzzleFingerprint(const Puzzle& puzzle);

// What a share is a share of.
struct ShareOfClass {
    Share share;
    size_t classSize = 0;         // the whole class's submissions
    std::string classFingerprint; // classFingerprint of the whole class
};

// What one grade run graded: a whole class, one share of it, or the shares merged.
struct GradedClass {
    std::vector<const Puzzle*> puzzles;    // in order
    std::vector<std::string> fingerprints; // one per puzzle: puzzleFingerprint
    std::string device;                    // the device's name
    std::optional<ShareOfClass> share;     // --shard K/N; none: the whole class
    std::vector<SubmissionGrade> grades;   // in the class's order
    bool students = false;                 // --all: a submission is a student's folder
    // The puzzles when they were rebuilt from a file (`puzzles` points into them): slug, title
    // and each case's name, points and whether it is hidden.
    std::vector<std::shared_ptr<const Puzzle>> ownPuzzles;
};

// The shares of one class, each read from `files[i]`, as one run over the whole class: every
// share of one split given once, graded on the same puzzles from the same class. A Usage error
// names the file that does not fit and why; `warnings` gets what is odd but merges (shares
// graded on different devices).
Result<GradedClass> mergeShares(std::vector<GradedClass> shares,
                                const std::vector<std::string>& files,
                                std::vector<std::string>& warnings);

} // namespace vkp
