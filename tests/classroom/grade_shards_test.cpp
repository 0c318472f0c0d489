// A class split across machines (classroom/grade_shards.h): which share each submission is in,
// and the shares put back together, or refused with the file that does not fit.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "classroom/grade_shards.h"
#include "gpu/device_runner.h"
#include "support/engines.h"

namespace vkp {
namespace {

std::vector<Submission> classOf(size_t n) {
    std::vector<Submission> out;
    for (size_t i = 0; i < n; ++i) {
        char name[16];
        std::snprintf(name, sizeof name, "s%03zu", i);
        out.push_back({name, {std::string(name) + ".comp"}});
    }
    return out;
}

TEST(GradeShardsTest, EverySubmissionIsInExactlyOneShareOfNearlyEqualSizes) {
    for (size_t n : {1u, 7u, 30u, 301u})
        for (size_t count : {1u, 2u, 3u, 8u, 40u}) {
            SCOPED_TRACE(std::to_string(n) + " in " + std::to_string(count));
            std::vector<Submission> cls = classOf(n);
            std::multiset<std::string> seen;
            size_t smallest = n, largest = 0;
            for (size_t k = 1; k <= count; ++k) {
                auto share = shareOf(cls, {k, count});
                EXPECT_EQ(share.size(), shareSize(n, {k, count}));
                smallest = std::min(smallest, share.size());
                largest = std::max(largest, share.size());
                for (const Submission& s : share)
                    seen.insert(s.name);
            }
            EXPECT_EQ(seen.size(), n);
            EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), n) << "none twice";
            EXPECT_LE(largest - smallest, 1u);
        }
    // The same names give the same share whatever order the folder listed them in: the class
    // is sorted by name first (findSubmissions), and the fingerprint follows the names.
    std::vector<Submission> cls = classOf(10);
    EXPECT_EQ(shareOf(cls, {2, 3})[1].name, "s004");
    EXPECT_EQ(classFingerprint(cls), classFingerprint(classOf(10)));
    EXPECT_NE(classFingerprint(cls), classFingerprint(classOf(11)));
    EXPECT_EQ(classFingerprint(cls).size(), 16u);
}

// The offset class graded for real once, its grades dealt into shares as --shard deals the
// submissions, and merged back.
struct Split {
    std::vector<GradedClass> shares;
    std::vector<std::string> files;
    GradedClass whole;
};

// The offset class's submissions and their grades, graded once for every test here.
struct Graded {
    std::vector<Submission> submissions;
    GradedClass whole;
};

const Graded& gradedOffsetClass() {
    static Graded g = [] {
        static PuzzleSet set =
            loadPuzzleSet(test::puzzleDir(), {test::sourceDir() + "/tests/data/grade/pack"});
        const Puzzle* offset = *set.find("offset");
        auto found = findSubmissions(test::sourceDir() + "/tests/data/grade/offset");
        if (!found) throw std::runtime_error(found.error().message);
        InProcessRunner runner(*test::engines().gpu);
        CheckOptions options;
        options.trace = true;
        Graded out;
        out.submissions = found->submissions;
        out.whole.puzzles = {offset};
        out.whole.fingerprints = {puzzleFingerprint(*offset)};
        out.whole.device = runner.info().name;
        out.whole.grades =
            gradeClass(test::engines().compiler, runner, {offset}, found->submissions, options);
        return out;
    }();
    return g;
}

Split splitOffsetClass(size_t count) {
    const Graded& g = gradedOffsetClass();
    Split s;
    s.whole = g.whole;
    for (size_t k = 1; k <= count; ++k) {
        GradedClass share = s.whole;
        share.share =
            ShareOfClass{{k, count}, g.submissions.size(), classFingerprint(g.submissions)};
        share.grades.clear();
        for (size_t i = k - 1; i < s.whole.grades.size(); i += count)
            share.grades.push_back(s.whole.grades[i]);
        s.shares.push_back(share);
        s.files.push_back("share-" + std::to_string(k) + ".json");
    }
    EXPECT_FALSE(g.whole.fingerprints[0].empty()) << "puzzle.toml read";
    return s;
}

TEST(GradeShardsTest, MergedSharesAreTheWholeClassInItsOrder) {
    ASSERT_TRUE(test::engines().gpu);
    Split s = splitOffsetClass(3);
    ASSERT_EQ(s.whole.grades.size(), 10u);
    EXPECT_EQ(s.shares[0].grades.size(), 4u);
    std::vector<std::string> warnings;
    // Given in any order.
    std::vector<GradedClass> shuffled = {s.shares[2], s.shares[0], s.shares[1]};
    auto merged = mergeShares(shuffled, {s.files[2], s.files[0], s.files[1]}, warnings);
    ASSERT_TRUE(merged) << merged.error().message;
    EXPECT_TRUE(warnings.empty());
    EXPECT_FALSE(merged->share) << "the merged class is a whole class";
    ASSERT_EQ(merged->grades.size(), s.whole.grades.size());
    for (size_t i = 0; i < merged->grades.size(); ++i) {
        EXPECT_EQ(merged->grades[i].name, s.whole.grades[i].name);
        EXPECT_DOUBLE_EQ(merged->grades[i].score(), s.whole.grades[i].score());
        EXPECT_EQ(merged->grades[i].reason(), s.whole.grades[i].reason());
    }
}

TEST(GradeShardsTest, SharesThatDoNotMakeOneClassAreRefusedNamingTheFile) {
    ASSERT_TRUE(test::engines().gpu);
    Split s = splitOffsetClass(3);
    auto refused = [&](std::vector<GradedClass> shares, std::vector<std::string> files) {
        std::vector<std::string> warnings;
        auto r = mergeShares(std::move(shares), files, warnings);
        EXPECT_FALSE(r);
        return r ? std::string() : r.error().message;
    };
    EXPECT_EQ(refused({s.shares[0], s.shares[1]}, {s.files[0], s.files[1]}),
              "share 3 of 3 is missing: merge every share of the class (2 given)");
    EXPECT_EQ(refused({s.shares[0], s.shares[1], s.shares[1]}, {"a.json", "b.json", "c.json"}),
              "b.json and c.json are both share 2 of 3: give each share once");
    Split four = splitOffsetClass(4);
    std::string other = refused({s.shares[0], four.shares[1]}, {"a.json", "four-2.json"});
    EXPECT_EQ(other.rfind("four-2.json (share 2 of 4) is from another split than a.json", 0), 0u)
        << other;
    GradedClass otherClass = s.shares[1];
    otherClass.share->classSize = 11;
    std::string cls = refused({s.shares[0], otherClass, s.shares[2]}, s.files);
    EXPECT_NE(cls.find("share-2.json (share 2 of 3) graded another class"), std::string::npos)
        << cls;
    GradedClass otherPuzzle = s.shares[2];
    otherPuzzle.fingerprints[0] = "0000000000000000";
    std::string puzzle = refused({s.shares[0], s.shares[1], otherPuzzle}, s.files);
    EXPECT_NE(puzzle.find("share-3.json (share 3 of 3) graded offset from another puzzle.toml"),
              std::string::npos)
        << puzzle;
    GradedClass cut = s.shares[0];
    cut.grades.pop_back();
    std::string cutShort = refused({cut, s.shares[1], s.shares[2]}, s.files);
    EXPECT_NE(cutShort.find("share-1.json (share 1 of 3) holds 3 submissions where share 1 of 3 "
                            "of a class of 10 holds 4"),
              std::string::npos)
        << cutShort;
    GradedClass whole = s.whole;
    EXPECT_NE(
        refused({s.shares[0], whole}, {"a.json", "whole.json"}).find("whole.json is not a share"),
        std::string::npos);
    // Another device merges, with a warning.
    std::vector<std::string> warnings;
    GradedClass elsewhere = s.shares[1];
    elsewhere.device = "NVIDIA H100";
    auto merged = mergeShares({s.shares[0], elsewhere, s.shares[2]}, s.files, warnings);
    ASSERT_TRUE(merged) << merged.error().message;
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("share-2.json was graded on NVIDIA H100"), std::string::npos)
        << warnings[0];
}

} // namespace
} // namespace vkp
