// Table-driven, as puzzle_loader_errors_test.cpp: malformed limits and [[rules]], hostile
// expressions, files outside the pack's folder, per-element expressions, [lookback] and [[search]]
// tables are rejected at their line with a message an author can act on.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "puzzle/puzzle_loader.h"
#include "rejected_puzzle.h"

namespace vkp {
namespace {

using namespace vkp::test;

const std::vector<BadFile>& badRuleFiles() {
    static const std::vector<BadFile> rows = {
        // Unknown keys (issue 18: `global_read = 1` dropped the rule and a 3-read kernel passed).
        {"TypoInLimits", kHead + "[limits]\nglobal_read = 1 # HERE\n" + kBuffers + kCase,
         "unknown key 'global_read' in [limits] (did you mean global_reads?)", 1},
        // Efficiency limits (issue 23).
        {"GlobalEfficiencyZero",
         kHead + "[limits]\nglobal_efficiency = 0.0 # HERE\n" + kBuffers + kCase,
         "'global_efficiency' is the fraction of touched sectors a request needs, above 0 and "
         "at most 1.0"},
        {"GlobalEfficiencyOverOne",
         kHead + "[limits]\nglobal_efficiency = 2 # HERE\n" + kBuffers + kCase,
         "above 0 and at most 1.0"},
        {"GlobalEfficiencyNotANumber",
         kHead + "[limits]\nglobal_efficiency = \"all\" # HERE\n" + kBuffers + kCase,
         "'global_efficiency'"},
        {"BankConflictsZero", kHead + "[limits]\nbank_conflicts = 0 # HERE\n" + kBuffers + kCase,
         "'bank_conflicts'"},
        {"BankConflictsOver32", kHead + "[limits]\nbank_conflicts = 33 # HERE\n" + kBuffers + kCase,
         "'bank_conflicts'"},
        {"DivergentRequestsUnknownName",
         kHead + "[limits]\ndivergent_requests = \"2 * STEPS\" # HERE\n" + kBuffers + kCase,
         "unknown name 'STEPS' in \"2 * STEPS\""},
        {"TypoInEfficiencyLimit",
         kHead + "[limits]\ndivergent_lanes = 0 # HERE\n" + kBuffers + kCase,
         "unknown key 'divergent_lanes' in [limits]"},
        // Limits written as expressions of the case (issue 20: matmul's read limit).
        {"LimitExpressionUnknownName",
         kHead + "[limits]\nglobal_reads = \"2 * STEPS\" # HERE\n" + kBuffers + kCase,
         "unknown name 'STEPS' in \"2 * STEPS\" (known: N, WG, the puzzle's constants)", 16},
        {"LimitExpressionSyntax",
         kHead + "[limits]\nglobal_writes = \"2 * (N\" # HERE\n" + kBuffers + kCase,
         "'global_writes'", 17},
        {"LimitExpressionDividesByZero",
         kHead + "[limits]\nglobal_reads = \"N / (WG - 4)\" # HERE\n" + kBuffers + kCase,
         "case 1: division by zero in the expression of 'global_reads' (\"N / (WG - 4)\"), "
         "column 3"},
        {"LimitExpressionTooLarge",
         kHead + "[limits]\nglobal_reads = \"N * 1000000\" # HERE\n" + kBuffers + kCase,
         "'global_reads' (\"N * 1000000\") is 4000000 in case 1; it must be between 0 and "
         "1048576"},
        // [[rules]]: what a statement forbids, as checks on the trace.
        {"TypoInRule",
         kHead + kBuffers + kCase + "[[rules]]\ntext = \"t\"\natomic_write_only = [\"a\"] # HERE\n",
         "unknown key 'atomic_write_only' in a [[rules]] entry (did you mean atomic_writes_only?)",
         1},
        {"RuleWithoutText", kHead + kBuffers + kCase + "[[rules]] # HERE\nat_most = 1\n",
         "missing field 'text'"},
        {"RuleWithNeitherCheck", kHead + kBuffers + kCase + "[[rules]] # HERE\ntext = \"t\"\n",
         "a rule has one of 'atomic_writes_only' (buffers written only with atomics), "
         "'reads_together' (buffers a thread reads in one run), 'at_most' (with 'count', 'of' "
         "and 'per'), 'uses' (what a kernel must compute with) or 'volatile_coherent'"},
        {"RuleWithBothChecks",
         kHead + kBuffers + kCase +
             "[[rules]] # HERE\ntext = \"t\"\natomic_writes_only = [\"a\"]\nat_most = 1\n",
         "a rule has one of"},
        {"RuleReadsTogetherAndAtomic",
         kHead + kBuffers + kCase +
             "[[rules]] # HERE\ntext = \"t\"\natomic_writes_only = [\"a\"]\n"
             "reads_together = [\"a\"]\n",
         "a rule has one of"},
        {"RulePerThreadNamesTheWorkgroup",
         kHead + kBuffers + kCase +
             "[[rules]]\ntext = \"t\"\ncount = \"reads\"\nof = \"a\"\nper = \"thread\"\n"
             "at_most = \"group_x + 1\" # HERE\n",
         "unknown name 'group_x' in \"group_x + 1\" (known: N, WG, the puzzle's constants; "
         "group_x, group_y and group_z name the workgroup of a bound per workgroup)"},
        {"RuleUsesSomethingUnknown",
         kHead + kBuffers + kCase + "[[rules]]\ntext = \"t\"\nuses = \"tensor_cores\" # HERE\n",
         "'uses' names what a kernel must compute with: \"cooperative_matrix\", not "
         "'tensor_cores'"},
        {"RuleUsesWithACount",
         kHead + kBuffers + kCase +
             "[[rules]] # HERE\ntext = \"t\"\nuses = \"cooperative_matrix\"\nat_most = 1\n",
         "a rule has one of"},
        {"RuleUsesFromAWorkgroupSize",
         kHead + kBuffers + kCase +
             "[[rules]]\ntext = \"t\"\nuses = \"cooperative_matrix\"\nfrom_workgroup_size = 4 # "
             "HERE\n",
         "'from_workgroup_size' does not go with 'uses'"},
        {"RuleVolatileCoherentUnknownBuffer",
         kHead + kBuffers + kCase +
             "[[rules]]\ntext = \"t\"\nvolatile_coherent = [\"statuz\"] # HERE\n",
         "no buffer named 'statuz' in this puzzle", 22},
        {"RuleVolatileCoherentWithACount",
         kHead + kBuffers + kCase +
             "[[rules]]\ntext = \"t\"\nvolatile_coherent = [\"a\"]\nper = \"thread\" # HERE\n",
         "'per' goes with 'at_most', not with 'volatile_coherent'"},
        {"RuleReadsTogetherUnknownBuffer",
         kHead + kBuffers + kCase + "[[rules]]\ntext = \"t\"\nreads_together = [\"b\"] # HERE\n",
         "no buffer named 'b' in this puzzle", 19},
        {"RuleReadsTogetherEmpty",
         kHead + kBuffers + kCase + "[[rules]]\ntext = \"t\"\nreads_together = [] # HERE\n",
         "'reads_together' needs at least one buffer name"},
        {"RuleCountWithReadsTogether",
         kHead + kBuffers + kCase +
             "[[rules]]\ntext = \"t\"\nreads_together = [\"a\"]\nper = \"thread\" # HERE\n",
         "'per' goes with 'at_most', not with 'reads_together'"},
        {"RuleAtomicUnknownBuffer",
         kHead + kBuffers + kCase +
             "[[rules]]\ntext = \"t\"\natomic_writes_only = [\"statuz\"] # HERE\n",
         "no buffer named 'statuz' in this puzzle", 23},
        {"RuleCountWithAtomic",
         kHead + kBuffers + kCase +
             "[[rules]]\ntext = \"t\"\natomic_writes_only = [\"a\"]\ncount = \"reads\" # HERE\n",
         "'count' goes with 'at_most', not with 'atomic_writes_only'"},
        {"RuleUnknownCount",
         kHead + kBuffers + kCase +
             "[[rules]]\ntext = \"t\"\nat_most = 1\ncount = \"adds\" # HERE\nof = \"shared\"\n"
             "per = \"thread\"\n",
         "unknown count 'adds' (expected one of: reads, writes, accesses)"},
        {"RuleUnknownOf",
         kHead + kBuffers + kCase +
             "[[rules]]\ntext = \"t\"\nat_most = 1\ncount = \"reads\"\nof = \"sharde\" # HERE\n"
             "per = \"thread\"\n",
         "this puzzle has no buffer named 'sharde'"},
        {"RuleMissingPer",
         kHead + kBuffers + kCase +
             "[[rules]] # HERE\ntext = \"t\"\nat_most = 1\ncount = \"reads\"\nof = \"shared\"\n",
         "missing field 'per'"},
        {"RuleBoundUnknownName",
         kHead + kBuffers + kCase +
             "[[rules]]\ntext = \"t\"\nat_most = \"4 * STEPS\" # HERE\ncount = \"reads\"\n"
             "of = \"shared\"\nper = \"thread\"\n",
         "unknown name 'STEPS' in \"4 * STEPS\""},
        {"RuleBoundDividesByZero",
         kHead + kBuffers + kCase +
             "[[rules]]\ntext = \"t\"\nat_most = \"N % (WG - 4)\" # HERE\ncount = \"reads\"\n"
             "of = \"shared\"\nper = \"thread\"\n",
         "case 1: division by zero"},
        {"RuleWorkgroupSizeZero",
         kHead + kBuffers + kCase +
             "[[rules]]\ntext = \"t\"\natomic_writes_only = [\"a\"]\nfrom_workgroup_size = 0 # "
             "HERE\n",
         "'from_workgroup_size' is 0; it must be between 1 and 1024"},
        {"TypoInTolerance", kHead + "tolerence = 1e-4 # HERE\n" + kBuffers + kCase,
         "unknown key 'tolerence' in puzzle.toml (did you mean tolerance?)", 1},
        {"UnknownTopLevelKey", kHead + "colour = \"red\" # HERE\n" + kBuffers + kCase,
         "unknown key 'colour' in puzzle.toml (known: title, slug,"},
        {"TypoInBuffer", kHead + kInput + "dim = 2 # HERE\n" + kOutput + kCase,
         "unknown key 'dim' in a [[buffers]] entry (did you mean dims?)", 1},
        {"TypoInConstant",
         kHead + kBuffers + "[[constants]]\nname = \"SIZE\"\nidd = 3 # HERE\n" + kCase,
         "unknown key 'idd' in a [[constants]] entry (did you mean id?)"},
        {"TypoInCase",
         kHead + kBuffers + "[[cases]]\nworkgroup_size = [4]\nworkgroup = [1] # HERE\n" + kInputA +
             kExpected,
         "unknown key 'workgroup' in a [[cases]] entry (did you mean workgroups?)"},
        {"TypoInFill",
         kHead + kBuffers + kCaseHead +
             "inputs.a = { shape = [4], fill = \"iota\", stpe = 2 } # HERE\n" + kExpected,
         "unknown key 'stpe' in a buffer's data (did you mean step?)"},
        {"TypoInOpParameter",
         kHead + kBuffers + kCaseHead + kInputA +
             "expected.result = { op = \"add_scalar\", args = [\"a\"], scaler = 1 } # HERE\n",
         "unknown key 'scaler' in an expected 'add_scalar' (did you mean scalar?)"},
        // Hostile expressions (issue 19, item 3): they overflowed the stack of every command.
        {"ParenthesesFiftyThousandDeep",
         kHead + kBuffers + "[[cases]]\nworkgroup_size = [4]\nworkgroups = [\"" +
             std::string(50000, '(') + "N" + std::string(50000, ')') + "\"] # HERE\n" + kInputA +
             kExpected,
         "in the expression of 'workgroups' (\"((((", 15},
        {"ParenthesesNestTooDeep",
         kHead + kBuffers + "[[cases]]\nworkgroup_size = [4]\nworkgroups = [\"" +
             std::string(65, '(') + "1" + std::string(65, ')') + "\"] # HERE\n" + kInputA +
             kExpected,
         "column 65: it nests deeper than 64 levels of parentheses and function calls", 15},
        {"FunctionCallsNestTooDeep",
         kHead + kBuffers + kConstant + kCaseHead + "constants = { SIZE = \"" +
             [] {
                 std::string s;
                 for (int i = 0; i < 100; ++i)
                     s += "max(1, ";
                 return s + "N" + std::string(100, ')');
             }() +
             "\" } # HERE\n" + kInputA + kExpected,
         "in the expression of 'SIZE' (\"max(1, max(1, ", 22},
        {"ChainOfTwoHundredThousandTerms",
         kHead + kBuffers + "[[cases]]\nworkgroup_size = [4]\nworkgroups = [\"N" +
             [] {
                 std::string s;
                 for (int i = 0; i < 200000; ++i)
                     s += "+N";
                 return s;
             }() +
             "\"] # HERE\n" + kInputA + kExpected,
         "it has more than 512 numbers, names and operators; write it shorter", 15},
        {"ChainOfProducts",
         kHead + kBuffers + kConstant + kCaseHead + "constants = { SIZE = \"" +
             [] {
                 std::string s = "1";
                 for (int i = 0; i < 5000; ++i)
                     s += " * 1";
                 return s;
             }() +
             "\" } # HERE\n" + kInputA + kExpected,
         "it has more than 512 numbers"},
        // Item 7: a puzzle pack's files stay inside its folder (no path traversal).
        {"StarterOutsideTheFolder",
         kHead + "starter = \"../../../../../etc/passwd\" # HERE\n" + kBuffers + kCase,
         "'starter' names \"../../../../../etc/passwd\", which is outside the puzzle's folder; a "
         "puzzle's files must be inside it",
         11},
        {"SolutionIsAnAbsolutePath",
         kHead + "solution = \"/etc/shadow\" # HERE\n" + kBuffers + kCase,
         "'solution' names \"/etc/shadow\", which is outside the puzzle's folder", 12},
        {"SolutionIsDevZero", kHead + "solution = \"/dev/zero\" # HERE\n" + kBuffers + kCase,
         "which is outside the puzzle's folder", 12},
        {"StarterIsTheFolderItself", kHead + "starter = \"sub/..\" # HERE\n" + kBuffers + kCase,
         "'starter' names \"sub/..\", which is outside"},
        {"StarterInASiblingFolderWithALongerName",
         kHead + "starter = \"../09-bad-twin/starter.comp\" # HERE\n" + kBuffers + kCase,
         "which is outside the puzzle's folder"},
        {"KernelSolutionOutsideTheFolder",
         kHead + kBuffers +
             "[[kernels]]\nname = \"k\"\nsolution = \"../../../etc/passwd\" # HERE\n"
             "[[passes]]\nkernel = \"k\"\nworkgroups = [1]\n[[cases]]\nworkgroup_size = [4]\n" +
             kInputA + kExpected,
         "'solution' names \"../../../etc/passwd\", which is outside the puzzle's folder", 12},
        {"EmptyStarter", kHead + "starter = \"\" # HERE\n" + kBuffers + kCase,
         "'starter' must name a file"},
        // Item 11: a division by zero is named, not reported as its result (0 workgroups).
        {"WorkgroupsDivideByZero",
         kHead + kBuffers + "[[cases]]\nworkgroup_size = [4]\nworkgroups = [\"N / 0\"] # HERE\n" +
             kInputA + kExpected,
         "division by zero in the expression of 'workgroups' (\"N / 0\"), column 3", 15},
        {"CeilDivByZeroInThisCase",
         kHead + kBuffers +
             "[[cases]]\nworkgroup_size = [4]\nworkgroups = [\"ceil_div(N, WG - 4)\"] # HERE\n" +
             kInputA + kExpected,
         "division by zero in the expression of 'workgroups' (\"ceil_div(N, WG - 4)\"), column 1"},
        {"ConstantModuloZero",
         kHead + kBuffers + kConstant + kCaseHead +
             "constants = { SIZE = \"N % (N - 4)\" } # HERE\n" + kInputA + kExpected,
         "division by zero in the expression of 'SIZE' (\"N % (N - 4)\"), column 3"},
        {"NegativePoints",
         kHead + kBuffers + kCaseHead + "points = -1 # HERE\n" + kInputA + kExpected,
         "'points' must be a number from 0 to 1000000"},
        {"HiddenNotABoolean",
         kHead + kBuffers + kCaseHead + "hidden = \"yes\" # HERE\n" + kInputA + kExpected,
         "'hidden' must be true or false"},
        // Issue 22, item 5: per-element expressions and the ops that read indices.
        {"EachSyntaxError",
         kHead + kBuffers + kCaseHead + kInputA + "expected.result = { each = \"a[i\" } # HERE\n",
         "in the expression of 'each' (\"a[i\"), column 4: ']' expected", 28},
        {"EachIndexOutsideABuffer",
         kHead + kBuffers + kCaseHead + kInputA +
             "expected.result = { each = \"a[i + 1] * 2\" } # HERE\n",
         "case 1, expected.result: in the expression of 'each' (\"a[i + 1] * 2\"), column 1: "
         "index 4 is outside 'a' (it has 4 elements), at element [3] (i = 3)",
         28},
        {"EachUnknownName",
         kHead + kBuffers + kCaseHead + kInputA + "expected.result = { each = \"b[i]\" } # HERE\n",
         "'b' is not a buffer of this puzzle"},
        {"EachOnAnInputReadsABuffer",
         kHead + kBuffers + kCaseHead +
             "inputs.a = { shape = [4], each = \"result[i]\" } # HERE\n" + kExpected,
         "case 1, inputs.a: in the expression of 'each' (\"result[i]\"), column 1: 'result' "
         "cannot be read here",
         34},
        {"EachBesideAFill",
         kHead + kBuffers + kCaseHead +
             "inputs.a = { shape = [4], fill = \"iota\", each = \"i\" } # HERE\n" + kExpected,
         "give either 'each' or 'fill', not both"},
        {"EachWithAnUnknownKey",
         kHead + kBuffers + kCaseHead + kInputA +
             "expected.result = { each = \"a[i]\", scalar = 2 } # HERE\n",
         "unknown key 'scalar' in an expected 'each'"},
        {"GatherIndexOutside",
         kHead + kBuffers +
             "[[buffers]]\nname = \"idx\"\nbinding = 2\ntype = \"int\"\nrole = \"input\"\n" +
             kCaseHead + kInputA + "inputs.idx = { shape = [3], values = [0, 5, 1] }\n" +
             "expected.result = { op = \"gather\", args = [\"a\", \"idx\"] } # HERE\n",
         "case 1, expected.result: gather: index 5 (element 1 of the indices) is outside the "
         "gathered buffer (4 elements)"},
        {"LookbackStatusIsNoBuffer",
         kHead + kBuffers + kLookbackBuffers + kCase + "[lookback]\nstatus = \"flags\" # HERE\n",
         "'flags' is not a buffer of this puzzle"},
        {"LookbackStatusOfFloats",
         kHead + kBuffers + kLookbackBuffers + kCase + "[lookback]\nstatus = \"a\" # HERE\n",
         "'a' holds float; [lookback] reads its words as uint"},
        {"LookbackUnknownKey",
         kHead + kBuffers + kLookbackBuffers + kCase + kLookback + "prefx = 2 # HERE\n",
         "unknown key 'prefx' in [lookback] (did you mean prefix?)"},
        {"LookbackSameFlags",
         kHead + kBuffers + kLookbackBuffers + kCase + kLookback +
             "aggregate = 2\nprefix = 2 # HERE\n",
         "AGGREGATE and PREFIX need two different flags (both are 2)"},
        {"LookbackFlagPastTheWord",
         kHead + kBuffers + kLookbackBuffers + kCase + kLookback + "prefix = 4 # HERE\n",
         "'prefix' is 4; it must be between 1 and 3"},
        {"LookbackTicketsInTheStatusWords",
         kHead + kBuffers + kLookbackBuffers + kCase +
             "[lookback]\nstatus = \"status\"\ncounter = \"status\" # HERE\n",
         "the tickets need a buffer of their own"},
        {"LookbackNoWordsPerTile",
         kHead + kBuffers + kLookbackBuffers + kCase + kLookback + "words_per_tile = 0 # HERE\n",
         "'words_per_tile' is 0; it must be between 1 and 65536"},
        {"LookbackNotATable", kHead + "lookback = \"status\" # HERE\n" + kBuffers + kCase,
         "[lookback] must be a table"},
        {"HistogramValueOutsideTheBins",
         kHead + kBuffers + kCaseHead + kInputA +
             "expected.result = { op = \"histogram\", args = [\"a\"], bins = 3 } # HERE\n",
         "histogram: value 3 (element 3) is not a bin: bins are the whole numbers 0 to 2"},
        // [[search]]: a case that can be generated at another size, a range, sizes, tries.
        {"SearchOfAFixedLaunch",
         kHead + kBuffers + kCase + "[[search]]\ncase = 1 # HERE\nn = [1, 8]\n",
         "case 1's workgroup count is a number: a search needs it as an expression of N"},
        {"SearchOfValuesWrittenOut",
         kHead + kBuffers + kCaseHead + "inputs.a = { shape = [2], values = [1, 2] }\n" +
             kExpected + "[[search]]\ncase = 1 # HERE\nn = [1, 8]\n",
         "case 1 cannot be generated at another size"},
        {"SearchOfNoCase", kHead + kBuffers + kCase + "[[search]]\ncase = 2 # HERE\nn = [1, 8]\n",
         "'case' is 2; it must be between 1 and 1"},
        {"SearchRangeBackwards",
         kHead + kBuffers +
             "[[cases]]\nworkgroup_size = [4]\nworkgroups = [\"ceil_div(N, WG)\"]\n" + kInputA +
             kExpected + "[[search]]\ncase = 1\nn = [9, 8] # HERE\n",
         "'n' goes from the smallest size to the largest"},
        {"SearchWorkgroupTooLarge",
         kHead + kBuffers +
             "[[cases]]\nworkgroup_size = [4]\nworkgroups = [\"ceil_div(N, WG)\"]\n" + kInputA +
             kExpected + "[[search]]\ncase = 1\nn = [1, 8]\nworkgroup_size = [4, 2048] # HERE\n",
         "'workgroup_size' is 2048; it must be between 1 and 1024"},
        {"SearchUnknownKey",
         kHead + kBuffers +
             "[[cases]]\nworkgroup_size = [4]\nworkgroups = [\"ceil_div(N, WG)\"]\n" + kInputA +
             kExpected + "[[search]]\ncase = 1\nn = [1, 8]\nseed = 3 # HERE\n",
         "seed"},
    };
    return rows;
}

class RejectedPuzzleRules : public ::testing::TestWithParam<BadFile> {};

TEST_P(RejectedPuzzleRules, NamesFileLineAndCause) {
    expectRejected(GetParam());
}

INSTANTIATE_TEST_SUITE_P(PuzzleLoader, RejectedPuzzleRules, ::testing::ValuesIn(badRuleFiles()),
                         [](const auto& info) { return std::string(info.param.name); });

} // namespace
} // namespace vkp
