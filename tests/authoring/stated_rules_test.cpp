// The pack check's lint for rules a statement states and nothing checks: a "must" sentence is
// listed unless a [[rules]] entry quotes it, a [limits] budget counts what it speaks of, it is
// about an output's values, it is one of the checks every kernel gets, or it says itself that it
// is not checked; and none of our own puzzles states a rule that nothing checks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "authoring/pack_lint.h"
#include "puzzle/puzzle_loader.h"

namespace vkp {
namespace {

Puzzle withStatement(const std::string& statement) {
    Puzzle p;
    p.statement = statement;
    BufferDecl out;
    out.name = "result";
    out.role = RoleKind::Output;
    BufferDecl in;
    in.name = "a";
    p.buffers = {in, out};
    return p;
}

using Sentences = std::vector<std::string>;

TEST(StatedRules, AMustSentenceNothingChecksIsListedWholeAndFolded) {
    Puzzle p = withStatement("Add ten to a.\nEach thread must handle two\n  neighbouring cells. "
                             "That is all.");
    EXPECT_EQ(uncheckedStatedRules(p),
              Sentences{"Each thread must handle two neighbouring cells."});
    p.statement = "A list:\n- every workgroup may only use one tile\n- fine";
    EXPECT_EQ(uncheckedStatedRules(p), Sentences{"- every workgroup may only use one tile"});
}

TEST(StatedRules, DescriptionsWithoutMustAreNoRules) {
    Puzzle p = withStatement("Only one thread writes. The loop never ends early. It can only be "
                             "as fast as a copy.");
    EXPECT_TRUE(uncheckedStatedRules(p).empty());
}

TEST(StatedRules, ARuleThatQuotesTheSentenceCoversIt) {
    Puzzle p = withStatement("Each thread must handle two neighbouring cells.");
    RuleDecl rule;
    rule.text = "each thread must handle two cells";
    p.rules.push_back(rule);
    EXPECT_TRUE(uncheckedStatedRules(p).empty());
    p.rules[0].text = "the workgroup uses one shared tile";
    EXPECT_EQ(uncheckedStatedRules(p).size(), 1u);
}

TEST(StatedRules, ALimitCoversTheSentencesAboutWhatItCounts) {
    Puzzle p = withStatement("Each thread must read global memory once.");
    EXPECT_EQ(uncheckedStatedRules(p).size(), 1u);
    p.limits.globalReads = 1;
    EXPECT_TRUE(uncheckedStatedRules(p).empty());
    p = withStatement("Every bank must be busy.");
    p.limits.globalReads = 1; // counts reads, not banks
    EXPECT_EQ(uncheckedStatedRules(p).size(), 1u);
    p.limits.bankConflicts = 1;
    EXPECT_TRUE(uncheckedStatedRules(p).empty());
}

TEST(StatedRules, OutputsAlwaysCheckedChecksAndSaidUncheckedAreCovered) {
    EXPECT_TRUE(
        uncheckedStatedRules(withStatement("The cells of result past count must stay 0.")).empty());
    EXPECT_TRUE(
        uncheckedStatedRules(withStatement("It must be right for any subgroup size.")).empty());
    EXPECT_TRUE(uncheckedStatedRules(withStatement("Every loop must be bounded.")).empty());
    EXPECT_TRUE(
        uncheckedStatedRules(withStatement("Each lane must take part (this is not checked)."))
            .empty());
    // `a` is an input: a sentence about it is no comparison's.
    EXPECT_EQ(uncheckedStatedRules(withStatement("Each thread must copy a twice.")).size(), 1u);
}

TEST(StatedRules, NoBundledPuzzleStatesARuleThatNothingChecks) {
    PuzzleSet set = loadPuzzleSet(std::string(VKPUZZLES_SOURCE_DIR) + "/puzzles");
    ASSERT_GT(set.puzzles.size(), 50u);
    for (const Puzzle& p : set.puzzles)
        for (const std::string& sentence : uncheckedStatedRules(p))
            ADD_FAILURE() << p.dir << ": " << sentence;
}

} // namespace
} // namespace vkp
