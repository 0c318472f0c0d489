// Table-driven: every malformed puzzle.toml is rejected with a message a puzzle author can act on,
// pointing at the file, line (and column where the culprit is a single value): the file's syntax,
// its fields, buffers, cases, inputs, expected outputs and constants. (Limits, rules, hostile
// expressions, files outside the pack, per-element ops, look-back and searches:
// puzzle_loader_rules_errors_test.cpp.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "puzzle/puzzle_loader.h"
#include "rejected_puzzle.h"

namespace vkp {
namespace {

using namespace vkp::test;

const std::vector<BadFile>& badFiles() {
    static const std::vector<BadFile> rows = {
        {"InvalidTomlSyntax", kHead + "order = = 3 # HERE\n" + kBuffers + kCase, "invalid TOML"},
        {"UnterminatedString", "title = \"T # HERE\n", "invalid TOML"},
        {"DuplicateKey", kHead + "title = \"again\" # HERE\n" + kBuffers + kCase, "invalid TOML"},
        {"MissingTitle",
         "# HERE\ntrack = \"classic\"\norder = 1\nstatement = \"s\"\nhints = [\"h\"]\n" + kBuffers +
             kCase,
         "missing field 'title'"},
        {"TitleNotAString",
         "title = 5 # HERE\ntrack = \"classic\"\norder = 1\nstatement = \"s\"\nhints = [\"h\"]\n" +
             kBuffers + kCase,
         "'title' must be a string", 9},
        {"OrderNotAnInteger",
         "title = \"T\"\ntrack = \"classic\"\norder = \"one\" # HERE\nstatement = \"s\"\nhints = "
         "[\"h\"]\n" +
             kBuffers + kCase,
         "'order' must be an integer", 9},
        {"HintNotAString",
         "title = \"T\"\ntrack = \"classic\"\norder = 1\nstatement = \"s\"\nhints = [\"h\", 3] # "
         "HERE\n" +
             kBuffers + kCase,
         "'hints' must be a string", 15},
        {"ZeroedInput", kHead + kInput + "zeroed = true # HERE\n" + kOutput + kCase,
         "'zeroed' is for outputs", 10},
        {"ZeroedNotABoolean", kHead + kInput + kOutput + "zeroed = 1 # HERE\n" + kCase,
         "'zeroed' must be true or false", 10},
        {"NegativeTolerance", kHead + "tolerance = -0.5 # HERE\n" + kBuffers + kCase,
         "'tolerance' must be a finite number, 0 or more", 13},
        {"UnknownRole",
         kHead + kInput +
             "[[buffers]]\nname = \"result\"\nbinding = 1\ntype = \"float\"\nrole = \"outptu\" # "
             "HERE\n" +
             kCase,
         "unknown role 'outptu' (expected one of: input, output, scratch)", 8},
        {"UnknownType",
         kHead +
             "[[buffers]]\nname = \"a\"\nbinding = 0\ntype = \"double\" # HERE\nrole = "
             "\"input\"\n" +
             kOutput + kCase,
         "unknown type 'double' (expected one of: float, int, uint)", 8},
        {"BindingOutOfRange",
         kHead +
             "[[buffers]]\nname = \"a\"\nbinding = 32 # HERE\ntype = \"float\"\nrole = "
             "\"input\"\n" +
             kOutput + kCase,
         "'binding' is 32; it must be between 0 and 31", 11},
        {"DimsThree", kHead + kInput + "dims = 3 # HERE\n" + kOutput + kCase,
         "'dims' is 3; it must be between 1 and 2", 8},
        {"DuplicateBinding",
         kHead + kInput +
             "[[buffers]] # HERE\nname = \"result\"\nbinding = 0\ntype = \"float\"\nrole = "
             "\"output\"\n" +
             kCase,
         "binding 0 is used twice"},
        {"DuplicateBufferName",
         kHead + kInput +
             "[[buffers]] # HERE\nname = \"a\"\nbinding = 1\ntype = \"float\"\nrole = "
             "\"output\"\n" +
             kCase,
         "buffer name 'a' is used twice"},
        {"NoOutputBuffer",
         kHead +
             "[[buffers]] # HERE\nname = \"a\"\nbinding = 0\ntype = \"float\"\nrole = \"input\"\n" +
             kCaseHead + kInputA,
         "at least one buffer with role = \"output\""},
        {"NoBuffers", kHead + "buffers = [] # HERE\n" + kCase, "at least one buffer"},
        {"MissingCases", "# HERE\n" + kHead + kBuffers, "missing field 'cases'"},
        {"NoCases", kHead + "cases = [] # HERE\n" + kBuffers, "at least one test case"},
        {"WorkgroupSizeWithFourEntries",
         kHead + kBuffers + "[[cases]]\nworkgroup_size = [1, 1, 1, 1] # HERE\nworkgroups = [1]\n" +
             kInputA + kExpected,
         "'workgroup_size' needs 1 to 3 entries", 18},
        {"EmptyWorkgroups",
         kHead + kBuffers + "[[cases]]\nworkgroup_size = [4]\nworkgroups = [] # HERE\n" + kInputA +
             kExpected,
         "'workgroups' needs 1 to 3 entries", 14},
        {"WorkgroupOf2048Threads",
         kHead + kBuffers + "[[cases]]\nworkgroup_size = [64, 32] # HERE\nworkgroups = [1]\n" +
             kInputA + kExpected,
         "a workgroup of 2048 threads is over the limit of 1024", 18},
        {"WorkgroupSizeEntryOver1024",
         kHead + kBuffers + "[[cases]]\nworkgroup_size = [2048] # HERE\nworkgroups = [1]\n" +
             kInputA + kExpected,
         "'workgroup_size' is 2048; it must be between 1 and 1024", 19},
        {"WorkgroupsOver65535",
         kHead + kBuffers + "[[cases]]\nworkgroup_size = [4]\nworkgroups = [1, 65536] # HERE\n" +
             kInputA + kExpected,
         "'workgroups' is 65536; it must be between 1 and 65535", 18},
        {"ZeroWorkgroups",
         kHead + kBuffers + "[[cases]]\nworkgroup_size = [4]\nworkgroups = [0] # HERE\n" + kInputA +
             kExpected,
         "'workgroups' is 0; it must be between 1 and 65535", 15},
        {"ShapeWithThreeEntries",
         kHead + kBuffers + kCaseHead +
             "inputs.a = { shape = [2, 2, 1], fill = \"iota\" } # HERE\n" + kExpected,
         "'shape' needs 1 or 2 entries", 22},
        {"ValuesCountDiffersFromShape",
         kHead + kBuffers + kCaseHead + "inputs.a = { shape = [4], values = [1, 2, 3] } # HERE\n" +
             kExpected,
         "3 values given for shape [4] (4 elements)", 36},
        {"NestedValuesCountDiffersFromShape",
         kHead + kBuffers + kCaseHead +
             "inputs.a = { shape = [2, 2], values = [[1, 2], [3]] } # HERE\n" + kExpected,
         "3 values given for shape [2, 2]", 39},
        {"ValueNotANumber",
         kHead + kBuffers + kCaseHead + "inputs.a = { shape = [2], values = [1, \"x\"] } # HERE\n" +
             kExpected,
         "'values' must be a number", 40},
        {"UnknownFill",
         kHead + kBuffers + kCaseHead + "inputs.a = { shape = [4], fill = \"zeros\" } # HERE\n" +
             kExpected,
         "unknown fill 'zeros' (expected one of: iota, constant, random)", 34},
        {"ConstantFillWithoutValue",
         kHead + kBuffers + kCaseHead + "inputs.a = { shape = [4], fill = \"constant\" } # HERE\n" +
             kExpected,
         "missing field 'value'"},
        {"RandomMinOverMax",
         kHead + kBuffers + kCaseHead +
             "inputs.a = { shape = [4], fill = \"random\", seed = 1, min = 5, max = -5 } # HERE\n" +
             kExpected,
         "random: 'min' is greater than 'max'"},
        {"RandomWithoutSeed",
         kHead + kBuffers + kCaseHead +
             "inputs.a = { shape = [4], fill = \"random\", min = 0, max = 1 } # HERE\n" + kExpected,
         "missing field 'seed'"},
        {"ShapeTooLarge",
         kHead + kBuffers + kCaseHead +
             "inputs.a = { shape = [65536, 65536], fill = \"iota\" } # HERE\n" + kExpected,
         "shape [65536, 65536] holds 4294967296 elements; the limit is 268435456"},
        {"ShapeEntryTooLarge",
         kHead + kBuffers + kCaseHead +
             "inputs.a = { shape = [268435457], fill = \"iota\" } # HERE\n" + kExpected,
         "'shape' is 268435457; it must be between 1 and 268435456", 23},
        {"UnknownReferenceOp",
         kHead + kBuffers + kCaseHead + kInputA +
             "expected.result = { op = \"mul\", args = [\"a\"] } # HERE\n",
         "unknown reference op 'mul' (known: add_scalar, add,", 26},
        {"OpArgumentNamesUnknownBuffer",
         kHead + kBuffers + kCaseHead + kInputA +
             "expected.result = { op = \"add_scalar\", args = [\"b\"], scalar = 1 } # HERE\n",
         "no buffer named 'b' in this puzzle", 48},
        {"OpArgumentIsAnOutput",
         kHead + kBuffers + kCaseHead + kInputA +
             "expected.result = { op = \"add_scalar\", args = [\"result\"], scalar = 1 } # HERE\n",
         "'result' is an output; an op reads inputs", 48},
        {"OpMissingParameter",
         kHead + kBuffers + kCaseHead + kInputA +
             "expected.result = { op = \"add_scalar\", args = [\"a\"] } # HERE\n",
         "add_scalar needs the parameter 'scalar'"},
        {"MatmulShapesDoNotFit",
         kHead + kInput +
             "[[buffers]]\nname = \"b\"\nbinding = 2\ntype = \"float\"\nrole = \"input\"\n" +
             kOutput + kCaseHead +
             "inputs.a = { shape = [2, 3], fill = \"iota\" }\ninputs.b = { shape = [2, 3], fill = "
             "\"iota\" }\n"
             "expected.result = { op = \"matmul\", args = [\"a\", \"b\"] } # HERE\n",
         "matmul: [2, 3] @ [2, 3] do not fit (inner sizes differ)"},
        {"FloatOnlyOpIntoAnIntOutput",
         kHead + kInput +
             "[[buffers]]\nname = \"result\"\nbinding = 1\ntype = \"int\"\nrole = \"output\"\n" +
             kCaseHead + kInputA +
             "expected.result = { op = \"softmax\", args = [\"a\"] } # HERE\n",
         "softmax computes fractions: its output must be a float buffer, and 'result' is declared "
         "int"},
        {"FirstInputShapeIsAnExpression",
         kHead + kBuffers + kCaseHead + "inputs.a = { shape = [\"N\"], fill = \"iota\" } # HERE\n" +
             kExpected,
         "this shape must be numbers (only inputs other than the first may write expressions"},
        {"ShapeExpressionNamesAConstant",
         kHead + kInput +
             "[[buffers]]\nname = \"b\"\nbinding = 2\ntype = \"float\"\nrole = \"input\"\n" +
             kOutput + kConstant + kCaseHead + "constants = { SIZE = 4 }\n" + kInputA +
             "inputs.b = { shape = [\"SIZE\"], fill = \"iota\" } # HERE\n" + kExpected,
         "'SIZE' cannot size an input: a shape may use N, rows and cols"},
        {"ShapeExpressionWithValuesWrittenOut",
         kHead + kInput +
             "[[buffers]]\nname = \"b\"\nbinding = 2\ntype = \"float\"\nrole = \"input\"\n" +
             kOutput + kCaseHead + kInputA +
             "inputs.b = { shape = [\"N\"], values = [1, 2, 3, 4] } # HERE\n" + kExpected,
         "values written out need a shape of numbers"},
        {"ShapeExpressionComesToZero",
         kHead + kInput +
             "[[buffers]]\nname = \"b\"\nbinding = 2\ntype = \"float\"\nrole = \"input\"\n" +
             kOutput + "[[cases]] # HERE\nworkgroup_size = [4]\nworkgroups = [1]\n" + kInputA +
             "inputs.b = { shape = [\"N - 4\"], fill = \"iota\" }\n" + kExpected,
         "the shape of 'b' comes to [0] when the first input is [4]"},
        {"ShapeBesideOpDisagrees",
         kHead + kBuffers + kCaseHead + kInputA +
             "expected.result = { op = \"add_scalar\", args = [\"a\"], scalar = 1, shape = [5] } # "
             "HERE\n",
         "shape [5] disagrees with add_scalar's result [4]", 74},
        {"InputMissingFromCase",
         kHead + kBuffers + "[[cases]] # HERE\nworkgroup_size = [4]\nworkgroups = [1]\n" +
             kExpected,
         "this case has no inputs.a"},
        {"ExpectedMissingFromCase",
         kHead + kBuffers + "[[cases]] # HERE\nworkgroup_size = [4]\nworkgroups = [1]\n" + kInputA,
         "this case has no expected.result"},
        {"ExpectedForAnInputBuffer",
         kHead + kBuffers + kCase + "expected.a = { shape = [4], values = [1, 2, 3, 4] } # HERE\n",
         "'a' is not an output: give it under inputs.", 14},
        {"InputForAnOutputBuffer",
         kHead + kBuffers + kCase + "inputs.result = { shape = [4], fill = \"iota\" } # HERE\n",
         "'result' is an output: give it under expected.", 17},
        {"DataForAnUnknownBuffer",
         kHead + kBuffers + kCase + "inputs.zz = { shape = [4], fill = \"iota\" } # HERE\n",
         "no buffer named 'zz' in this puzzle", 13},
        {"ConstantIdOneIsReserved",
         kHead + kBuffers + "[[constants]]\nname = \"N\"\nid = 1 # HERE\n" + kCase,
         "'id' is 1; it must be between 3 and 4095", 6},
        {"DuplicateConstantId",
         kHead + kBuffers + kConstant + "[[constants]] # HERE\nname = \"M\"\nid = 3\n" + kCase,
         "constant id 3 is used twice"},
        {"DuplicateConstantName",
         kHead + kBuffers + kConstant + "[[constants]]\nname = \"SIZE\" # HERE\nid = 4\n" + kCase,
         "constant name 'SIZE' is used twice", 8},
        {"ConstantNamedLikeN",
         kHead + kBuffers + "[[constants]]\nname = \"WG\" # HERE\nid = 3\n" + kCase,
         "'WG' already means something in expressions", 8},
        {"ConstantNamedLikeABuffer",
         kHead + kBuffers + "[[constants]]\nname = \"a\" # HERE\nid = 3\n" + kCase,
         "constant name 'a' is also a buffer's name", 8},
        {"ConstantNameNotAWord",
         kHead + kBuffers + "[[constants]]\nname = \"MY SIZE\" # HERE\nid = 3\n" + kCase,
         "constant name 'MY SIZE' must be a word", 8},
        {"SlugNotAWord", kHead + "slug = \"Map Slug\" # HERE\n" + kBuffers + kCase,
         "'Map Slug' is not a slug", 8},
        {"EmptySlug", kHead + "slug = \"\" # HERE\n" + kBuffers + kCase, "the slug is empty", 8},
        {"FloatPastItsRange",
         kHead + kBuffers + kCaseHead + "inputs.a = { shape = [2], values = [1, 1e39] } # HERE\n" +
             kExpected,
         "'a' holds float: 1e+39 is past a float's range (it would be inf) (value 2)"},
        {"UintPastItsRange",
         kHead + kUintInput + kOutput + kCaseHead +
             "inputs.a = { shape = [2], values = [0, 4294967296] } # HERE\n" + kExpected,
         "'a' holds uint: 4294967296 is past 4294967295 (value 2)"},
        {"UintBelowZero",
         kHead + kUintInput + kOutput + kCaseHead +
             "inputs.a = { shape = [4], fill = \"random\", seed = 1, min = -1, max = 3 } # HERE\n" +
             kExpected,
         "'a' holds uint: -1 is below 0"},
        {"UintFraction",
         kHead + kUintInput + kOutput + kCaseHead +
             "inputs.a = { shape = [2], values = [1, 4.5] } # HERE\n" + kExpected,
         "4.5 is not a whole number"},
        {"MissingConstantValue",
         kHead + kBuffers + kConstant + kCaseHead + "constants = { } # HERE\n" + kInputA +
             kExpected,
         "this case gives no value for the constant 'SIZE'", 13},
        {"CaseWithoutConstants",
         kHead + kBuffers + kConstant +
             "[[cases]] # HERE\nworkgroup_size = [4]\nworkgroups = [1]\n" + kInputA + kExpected,
         "this case gives no value for the constant 'SIZE'"},
        {"UndeclaredConstantInCase",
         kHead + kBuffers + kConstant + kCaseHead + "constants = { SIZE = 4, N = 2 } # HERE\n" +
             kInputA + kExpected,
         "'N' is not a constant of this puzzle (declare it under [[constants]])", 29},
        {"ConstantValueOver32Bits",
         kHead + kBuffers + kConstant + kCaseHead + "constants = { SIZE = 4294967296 } # HERE\n" +
             kInputA + kExpected,
         "'SIZE' does not fit 32 bits", 22},
        {"LimitsNotATable", kHead + "limits = 3 # HERE\n" + kBuffers + kCase,
         "'limits' must be a table", 10},
    };
    return rows;
}

class RejectedPuzzle : public ::testing::TestWithParam<BadFile> {};

TEST_P(RejectedPuzzle, NamesFileLineAndCause) {
    expectRejected(GetParam());
}

INSTANTIATE_TEST_SUITE_P(PuzzleLoader, RejectedPuzzle, ::testing::ValuesIn(badFiles()),
                         [](const auto& info) { return std::string(info.param.name); });

// The rows above are built from these parts; make sure they are valid on their own, so each row
// fails only for the reason it names.
TEST(RejectedPuzzleBase, PartsMakeAValidPuzzle) {
    auto p = parsePuzzle(kHead + kBuffers + kCase, "ok.toml", "01-ok");
    ASSERT_TRUE(p.ok()) << p.error().str();
    EXPECT_EQ(p->cases.size(), 1u);
    auto withConstant = parsePuzzle(kHead + kBuffers + kConstant + kCaseHead +
                                        "constants = { SIZE = 4 }\n" + kInputA + kExpected,
                                    "ok.toml", "01-ok");
    ASSERT_TRUE(withConstant.ok()) << withConstant.error().str();
    EXPECT_EQ(withConstant->cases[0].constants.at(3), 4u);
    EXPECT_EQ(p->cases[0].points, 1.0);
    EXPECT_FALSE(p->cases[0].hidden);
    auto graded = parsePuzzle(kHead + kBuffers + kCaseHead + "points = 2.5\nhidden = true\n" +
                                  kInputA + kExpected,
                              "ok.toml", "01-ok");
    ASSERT_TRUE(graded.ok()) << graded.error().str();
    EXPECT_EQ(graded->cases[0].points, 2.5);
    EXPECT_TRUE(graded->cases[0].hidden);
    auto lookback =
        parsePuzzle(kHead + kBuffers + kLookbackBuffers + kCase + kLookback, "ok.toml", "01-ok");
    ASSERT_TRUE(lookback.ok()) << lookback.error().str();
    EXPECT_TRUE(lookback->lookback.has_value());
}

TEST(RejectedPuzzleGaps, NanToleranceIsRejected) {
    // BUG (src/puzzle/puzzle_loader.cpp): the check is `tolerance < 0`, which is false for NaN, so
    // `tolerance = nan` (valid TOML) loads, and then no float output can ever pass (every
    // comparison with NaN is false) unless the bits match exactly. `tolerance = inf` also loads
    // and makes every float case pass.
    const std::string text = kHead + "tolerance = nan # HERE\n" + kBuffers + kCase;
    auto p = parsePuzzle(text, "p.toml", "01-p");
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().where.line, markedLine(text));
}

} // namespace
} // namespace vkp
