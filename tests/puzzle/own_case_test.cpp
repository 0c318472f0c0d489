// buildOwnCase on the real puzzles: a learner's own case from text, and every error it names.
#include <gtest/gtest.h>

#include <string>

#include "puzzle/own_case.h"
#include "puzzle/puzzle_loader.h"

namespace vkp {
namespace {

const Puzzle& puzzle(const std::string& folder) {
    static PuzzleSet set = loadPuzzleSet(std::string(VKPUZZLES_SOURCE_DIR) + "/puzzles");
    auto p = set.find(folder);
    EXPECT_TRUE(p.ok()) << folder;
    return **p;
}

// The fields as the command line names them (cli/own_case_args.h), which the messages quote.
std::string optionName(OwnCaseField field, const std::string& name) {
    static const char* const kOptions[] = {"--input ", "--workgroups", "--workgroup-size", "--set ",
                                           "--case"};
    std::string option = kOptions[static_cast<int>(field)];
    return option.back() == ' ' ? option + name : option;
}

Result<TestCase> build(const std::string& folder, OwnCaseSpec spec) {
    return buildOwnCase(puzzle(folder), spec, optionName);
}

std::string errorOf(const std::string& folder, OwnCaseSpec spec) {
    auto c = build(folder, spec);
    EXPECT_FALSE(c.ok());
    return c ? std::string() : c.error().message;
}

TEST(OwnCase, ValuesSetTheInputAndTheReferenceOpFollows) {
    auto c = build("zip", {0, {{"a", "1, 2, 3"}, {"b", "10 20 30"}}});
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_TRUE(c->own);
    ASSERT_EQ(c->data[0]->kind, DataSpec::Kind::Values);
    EXPECT_EQ(c->data[0]->values, (std::vector<double>{1, 2, 3}));
    EXPECT_EQ(c->data[1]->values, (std::vector<double>{10, 20, 30}));
    EXPECT_EQ(c->data[2]->kind, DataSpec::Kind::Op);
    EXPECT_EQ(c->data[2]->shape, Shape{{3}});
    EXPECT_TRUE(ownCaseChecked(*c));

    // The case runs like the loader's: materialised, the expected values come from the op.
    Puzzle p = withCase(puzzle("zip"), *c);
    auto data = materializeCase(p, p.cases.size() - 1);
    ASSERT_TRUE(data.ok());
    EXPECT_EQ(data->expected[2]->get(2), 33);
    EXPECT_EQ(p.puzzleCaseCount(), puzzle("zip").cases.size());
}

TEST(OwnCase, LaunchShapeAndConstantsAreSet) {
    auto c = build("map-2d", {0, {{"a", "1 2 3; 4 5 6; 7 8 9"}}, "2,2", "2,2", {{"SIZE", "3"}}});
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c->data[0]->shape, (Shape{{3, 3}}));
    EXPECT_EQ(c->workgroups, (std::array<uint32_t, 3>{2, 2, 1}));
    EXPECT_EQ(c->workgroupSize, (std::array<uint32_t, 3>{2, 2, 1}));
    EXPECT_EQ(c->constants.at(3), 3u);
    // What it is written as, too: a benchmark that scales the case to N keeps the value given.
    EXPECT_EQ(c->constantExprs.at(3).text(), "3");
    EXPECT_EQ(c->data[1]->shape, (Shape{{3, 3}}));
    // One line of a 2D buffer is cut into rows as wide as the template's (2 in case 1).
    auto rows = build("map-2d", {0, {{"a", "1, 2, 3, 4, 5, 6"}}});
    ASSERT_TRUE(rows.ok()) << rows.error().message;
    EXPECT_EQ(rows->data[0]->shape, (Shape{{3, 2}}));
}

TEST(OwnCase, SizesWrittenAsExpressionsFollowTheInputs) {
    // scan-blocks: tiles of WG * ITEMS = 8; the scratch 'sums' holds one cell per tile.
    auto c = build("scan-blocks", {0, {{"a", "{ shape = [100], fill = \"iota\" }"}}});
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c->data[0]->kind, DataSpec::Kind::Iota);
    EXPECT_EQ(c->data[0]->shape, Shape{{100}});
    EXPECT_EQ(c->data[2]->shape, Shape{{13}}); // ceil_div(100, 8)
    EXPECT_EQ(c->data[1]->shape, Shape{{100}});
}

TEST(OwnCase, HandWrittenOutputsHaveNoExpectedValues) {
    auto c = build("compact", {0, {{"a", "5, 6, 7, 8, 9"}}});
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_FALSE(ownCaseChecked(*c));
    EXPECT_EQ(c->data[1]->kind, DataSpec::Kind::Unchecked);
    EXPECT_EQ(c->data[1]->shape, Shape{{5}}); // as long as the input, as in the template
    EXPECT_EQ(c->data[2]->shape, Shape{{1}}); // the count keeps its size
}

TEST(OwnCase, EveryMistakeNamesTheOption) {
    EXPECT_EQ(errorOf("zip", {0, {{"c", "1"}}}),
              "--input c: no buffer named 'c' in zip (its inputs: a, b)");
    EXPECT_EQ(errorOf("zip", {0, {{"result", "1"}}}),
              "--input result: 'result' is an output: the kernel writes it (its inputs: a, b)");
    EXPECT_EQ(
        errorOf("zip", {0, {{"a", "1, x, 3"}}}),
        "--input a: 'x' (value 2) is not a float: a float needs a number such as 2, -1.5 or 1e3");
    EXPECT_EQ(errorOf("compact", {0, {{"a", "1, -2"}}}),
              "--input a: '-2' (value 2) is not a uint: a uint needs a whole number from 0 to "
              "4294967295");
    EXPECT_EQ(errorOf("zip", {0, {{"a", "1,,2"}}}),
              "--input a: an empty value between commas (a ',' too many?)");
    EXPECT_EQ(errorOf("zip", {0, {{"a", ""}}}), "--input a: give at least one value, e.g. 1, 2, 3");
    EXPECT_EQ(errorOf("zip", {0, {{"a", "1; 2"}}}),
              "--input a: 'a' is one-dimensional: separate its values with commas, not ';'");
    EXPECT_EQ(errorOf("zip", {0, {{"a", "1"}, {"a", "2"}}}), "--input a: 'a' is given twice");
    EXPECT_EQ(errorOf("map-2d", {0, {{"a", "1 2 3; 4 5"}}}),
              "--input a: row 2 has 2 values, row 1 has 3; every row needs as many");
    EXPECT_EQ(errorOf("map-2d", {0, {{"a", "1 2 3"}}}),
              "--input a: 3 values do not make rows of 2 (case 1's width); separate the rows with "
              "';', e.g. 1 2 3; 4 5 6");
    EXPECT_EQ(errorOf("zip", {0, {}, "70000"}),
              "--workgroups: give X, X,Y or X,Y,Z, whole numbers from 1 to 65535, not '70000'");
    EXPECT_EQ(errorOf("zip", {0, {}, "1,2,3,4"}),
              "--workgroups: give X, X,Y or X,Y,Z, whole numbers from 1 to 65535, not '1,2,3,4'");
    EXPECT_EQ(errorOf("zip", {0, {}, "", "64,32"}),
              "--workgroup-size: a workgroup of 2048 threads is over the limit of 1024");
    EXPECT_EQ(errorOf("zip", {0, {}, "", "", {{"SIZE", "3"}}}),
              "--set SIZE: 'SIZE' is not a constant of zip (it has none)");
    EXPECT_EQ(errorOf("map-2d", {0, {}, "", "", {{"SIZE", "-1"}}}),
              "--set SIZE: needs a whole number from 0 to 4294967295, not '-1'");
    EXPECT_EQ(errorOf("scan-blocks", {0, {}, "4"}), "--workgroups: scan-blocks is multi-pass: each "
                                                    "pass computes its own workgroup count from N");
    size_t zipCases = puzzle("zip").cases.size();
    EXPECT_EQ(errorOf("zip", {zipCases, {}}),
              "--case: zip has cases 1 to " + std::to_string(zipCases));
    EXPECT_NE(errorOf("scan-blocks", {0, {{"sums", "1"}}})
                  .find("--input sums: 'sums' is scratch sized by"),
              std::string::npos);
    // A fill goes through the loader's own parser, and its messages name the option.
    EXPECT_EQ(
        errorOf("zip", {0, {{"a", "{ shape = [4], fill = \"iotta\" }"}}}).rfind("--input a: ", 0),
        0u);
    EXPECT_NE(errorOf("zip", {0, {{"a", "{ shape = [4], fill = \"iotta\" }"}}}).find("iotta"),
              std::string::npos);
    EXPECT_NE(
        errorOf("zip", {0, {{"a", "{ shape = [4"}}}).find("--input a: not a TOML table at column"),
        std::string::npos);
    // Inputs too short for a reference op's shape rule.
    EXPECT_NE(
        errorOf("zip", {0, {{"a", "1, 2, 3"}}}).find("these inputs do not fit 'result' = add"),
        std::string::npos);
}

TEST(OwnCase, TheAppNamesItsOwnFields) {
    auto named = [](OwnCaseField f, const std::string& name) {
        return f == OwnCaseField::Input ? "values of " + name : std::string("field");
    };
    auto c = buildOwnCase(puzzle("zip"), {0, {{"a", "1, x"}}}, named);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error().message.rfind("values of a: 'x'", 0), 0u);
}

TEST(OwnCase, ValuesTextIsWhatTheFormShows) {
    BufferData b = BufferData::zeros(ElementKind::Float, Shape{{2, 2}});
    b.set(1, 1.5);
    b.set(3, -2);
    EXPECT_EQ(valuesText(b, 2), "0, 1.5; 0, -2");
    EXPECT_EQ(valuesText(b, 1), "0, 1.5, 0, -2");
    EXPECT_EQ(dimsListText({4, 1, 1}), "4");
    EXPECT_EQ(dimsListText({4, 2, 1}), "4,2");
}

} // namespace
} // namespace vkp
