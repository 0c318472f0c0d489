#include "classroom/grade_shards.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "base/args.h"
#include "base/text_file.h"

namespace vkp {
namespace {

// FNV-1a, 64 bits: the same on every machine and compiler (std::hash is neither).
struct Fnv {
    uint64_t h = 1469598103934665603ull;
    void add(const std::string& s) {
        for (unsigned char c : s)
            h = (h ^ c) * 1099511628211ull;
    }
    std::string hex() const {
        char buf[24];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
        return buf;
    }
};

Error mergeError(const std::string& message) {
    return Error{ErrorKind::Usage, message};
}

std::string shareText(const Share& s) {
    return "share " + std::to_string(s.index) + " of " + std::to_string(s.count);
}

// Whether two shares graded the same puzzles: slugs, puzzle.toml and every case's points.
std::optional<std::string> puzzlesDiffer(const GradedClass& a, const GradedClass& b) {
    auto slugs = [](const GradedClass& c) {
        std::vector<std::string> out;
        for (const Puzzle* p : c.puzzles)
            out.push_back(p->slug);
        return out;
    };
    if (slugs(a) != slugs(b))
        return "graded " + joined(slugs(b), ", ", " and ") + ", where the first graded " +
               joined(slugs(a), ", ", " and ");
    for (size_t k = 0; k < a.puzzles.size(); ++k) {
        const Puzzle& pa = *a.puzzles[k];
        const Puzzle& pb = *b.puzzles[k];
        bool same = a.fingerprints[k] == b.fingerprints[k] && pa.cases.size() == pb.cases.size();
        for (size_t i = 0; same && i < pa.cases.size(); ++i)
            same = pa.cases[i].points == pb.cases[i].points &&
                   pa.cases[i].hidden == pb.cases[i].hidden;
        if (!same)
            return "graded " + pa.slug +
                   " from another puzzle.toml than the first (its cases, points or values "
                   "changed between the shares): grade every share with one pack";
    }
    return std::nullopt;
}

} // namespace

size_t shareSize(size_t classSize, Share share) {
    if (share.count == 0 || classSize < share.index) return 0;
    return (classSize - share.index) / share.count + 1;
}

std::vector<Submission> shareOf(const std::vector<Submission>& sorted, Share share) {
    std::vector<Submission> out;
    if (share.count == 0 || share.index == 0) return out;
    for (size_t i = share.index - 1; i < sorted.size(); i += share.count)
        out.push_back(sorted[i]);
    return out;
}

std::string classFingerprint(const std::vector<Submission>& submissions) {
    Fnv f;
    for (const Submission& s : submissions) {
        f.add(s.name);
        f.add(std::string(1, '\0'));
    }
    return f.hex();
}

std::string puzzleFingerprint(const Puzzle& puzzle) {
    auto text = readTextFile(puzzle.file);
    if (!text) return "";
    std::string t = *text;
    t.erase(std::remove(t.begin(), t.end(), '\r'), t.end());
    Fnv f;
    f.add(t);
    return f.hex();
}

Result<GradedClass> mergeShares(std::vector<GradedClass> shares,
                                const std::vector<std::string>& files,
                                std::vector<std::string>& warnings) {
    if (shares.empty()) return mergeError("--merge needs the shares' JSON files");
    for (size_t i = 0; i < shares.size(); ++i)
        if (!shares[i].share)
            return mergeError(files[i] +
                              " is not a share: it was graded without --shard K/N (a whole "
                              "class needs no merging)");
    const GradedClass& first = *shares.begin();
    const ShareOfClass& of = *first.share;
    std::map<size_t, size_t> given; // share index -> position in `shares`
    for (size_t i = 0; i < shares.size(); ++i) {
        const ShareOfClass& s = *shares[i].share;
        std::string what = files[i] + " (" + shareText(s.share) + ")";
        if (s.share.count != of.share.count)
            return mergeError(what + " is from another split than " + files[0] + " (" +
                              shareText(of.share) + "): give the shares of one --shard K/" +
                              std::to_string(of.share.count));
        if (s.classSize != of.classSize || s.classFingerprint != of.classFingerprint)
            return mergeError(what + " graded another class than " + files[0] + " (" +
                              std::to_string(s.classSize) + " submissions against " +
                              std::to_string(of.classSize) +
                              ", or others of those names): grade every share from one copy of "
                              "the class's folder");
        if (auto differ = puzzlesDiffer(first, shares[i])) return mergeError(what + " " + *differ);
        if (shares[i].students != first.students)
            return mergeError(what + (shares[i].students ? " was" : " was not") +
                              " graded with --all, and " + files[0] +
                              (first.students ? " was" : " was not"));
        if (auto [it, fresh] = given.emplace(s.share.index, i); !fresh)
            return mergeError(files[it->second] + " and " + files[i] + " are both " +
                              shareText(s.share) + ": give each share once");
        size_t expected = shareSize(s.classSize, s.share);
        if (shares[i].grades.size() != expected)
            return mergeError(what + " holds " + std::to_string(shares[i].grades.size()) +
                              " submissions where " + shareText(s.share) + " of a class of " +
                              std::to_string(s.classSize) + " holds " + std::to_string(expected) +
                              " (was the file cut short or edited?)");
        if (shares[i].device != first.device)
            warnings.push_back(files[i] + " was graded on " + shares[i].device + ", " + files[0] +
                               " on " + first.device +
                               ": a kernel may be graded differently on each");
    }
    std::vector<std::string> missing;
    for (size_t k = 1; k <= of.share.count; ++k)
        if (!given.count(k)) missing.push_back(std::to_string(k));
    if (!missing.empty())
        return mergeError(std::string(missing.size() == 1 ? "share " : "shares ") +
                          joined(missing, ", ", " and ") + " of " + std::to_string(of.share.count) +
                          (missing.size() == 1 ? " is" : " are") +
                          " missing: merge every share of the class (" +
                          std::to_string(shares.size()) + " given)");
    // The class's order back: submission i of the class is number i / N of share i % N + 1.
    GradedClass out = shares[given.at(1)];
    out.share.reset();
    out.grades.clear();
    for (size_t i = 0; i < of.classSize; ++i) {
        const GradedClass& from = shares[given.at(i % of.share.count + 1)];
        out.grades.push_back(from.grades[i / of.share.count]);
        // Every grade points at the merged class's puzzles (the shares' own are equal to them).
        for (size_t k = 0; k < out.grades.back().puzzles.size(); ++k)
            out.grades.back().puzzles[k].puzzle = out.puzzles[k];
    }
    return out;
}

} // namespace vkp
