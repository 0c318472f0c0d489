// Table-driven: every malformed puzzle.toml is rejected with a message a puzzle author can act on,
// pointing at the file, line (and column where the culprit is a single value).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "puzzle/puzzle_loader.h"

namespace vkp {
namespace {

// A valid puzzle assembled from parts, so each row only spells out what it breaks.
const std::string kHead =
    "title = \"T\"\ntrack = \"classic\"\norder = 1\nstatement = \"s\"\nhints = [\"h\"]\n";
const std::string kInput =
    "[[buffers]]\nname = \"a\"\nbinding = 0\ntype = \"float\"\nrole = \"input\"\n";
const std::string kOutput =
    "[[buffers]]\nname = \"result\"\nbinding = 1\ntype = \"float\"\nrole = \"output\"\n";
const std::string kBuffers = kInput + kOutput;
const std::string kUintInput =
    "[[buffers]]\nname = \"a\"\nbinding = 0\ntype = \"uint\"\nrole = \"input\"\n";
const std::string kCaseHead = "[[cases]]\nworkgroup_size = [4]\nworkgroups = [1]\n";
const std::string kInputA = "inputs.a = { shape = [4], fill = \"iota\" }\n";
const std::string kExpected =
    "expected.result = { op = \"add_scalar\", args = [\"a\"], scalar = 1 }\n";
const std::string kCase = kCaseHead + kInputA + kExpected;
const std::string kConstant = "[[constants]]\nname = \"SIZE\"\nid = 3\n";
// A decoupled look-back's buffers, and a [lookback] table that names them (after the cases).
const std::string kLookbackBuffers =
    "[[buffers]]\nname = \"status\"\nbinding = 2\ntype = \"uint\"\nrole = \"scratch\"\n"
    "size = \"1\"\n[[buffers]]\nname = \"counter\"\nbinding = 3\ntype = \"uint\"\n"
    "role = \"scratch\"\nsize = \"1\"\n";
const std::string kLookback = "[lookback]\nstatus = \"status\"\ncounter = \"counter\"\n";

struct BadFile {
    const char* name;
    std::string toml;    // the line the error must point at ends with "# HERE"
    const char* message; // a substring of the error's message
    int column = 0;      // checked when not 0
};

std::ostream& operator<<(std::ostream& os, const BadFile& b) {
    return os << b.name;
}

int markedLine(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (line.find("# HERE") != std::string::npos) return n;
    return 0;
}

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

class RejectedPuzzle : public ::testing::TestWithParam<BadFile> {};

TEST_P(RejectedPuzzle, NamesFileLineAndCause) {
    const BadFile& row = GetParam();
    const int line = markedLine(row.toml);
    ASSERT_GT(line, 0) << "the row has no # HERE marker";
    auto p = parsePuzzle(row.toml, "puzzles/09-bad/puzzle.toml", "puzzles/09-bad");
    ASSERT_FALSE(p.ok()) << "accepted:\n" << row.toml;
    const Error& e = p.error();
    EXPECT_EQ(e.kind, ErrorKind::PuzzleFile);
    EXPECT_NE(e.message.find(row.message), std::string::npos) << "message: " << e.message;
    EXPECT_EQ(e.where.file, "puzzles/09-bad/puzzle.toml");
    EXPECT_GT(e.where.line, 0) << e.str();
    EXPECT_EQ(e.where.line, line) << e.str() << "\n" << row.toml;
    if (row.column) {
        EXPECT_EQ(e.where.column, row.column) << e.str();
    }
    EXPECT_EQ(e.str().rfind("puzzles/09-bad/puzzle.toml:" + std::to_string(e.where.line), 0), 0u)
        << e.str();
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
