// [[rules]] and expression limits end to end on synthetic traces: puzzle.toml text is parsed,
// caseChecks evaluates it for a case, and analyzeTrace reports what the trace breaks.
#include <gtest/gtest.h>

#include <string>

#include "judge/statement_rules.h"
#include "puzzle/puzzle_loader.h"
#include "support/trace_builder.h"

namespace vkp {
namespace {

using namespace test;

// A puzzle with buffers a (input), result (output) and flags (scratch, binding 2), a constant
// STEPS, and two cases: 4 threads (N = 8, STEPS = 2) and 8 threads (N = 16, STEPS = 3).
std::string puzzleText(const std::string& extra) {
    return "title = \"T\"\ntrack = \"classic\"\norder = 1\nstatement = \"s\"\nhints = []\n"
           "[[buffers]]\nname = \"a\"\nbinding = 0\ntype = \"uint\"\nrole = \"input\"\n"
           "[[buffers]]\nname = \"result\"\nbinding = 1\ntype = \"uint\"\nrole = \"output\"\n"
           "[[buffers]]\nname = \"flags\"\nbinding = 2\ntype = \"uint\"\nrole = \"scratch\"\n"
           "size = \"WG\"\n"
           "[[constants]]\nname = \"STEPS\"\nid = 3\n"
           "[[cases]]\nworkgroup_size = [4]\nworkgroups = [1]\nconstants = { STEPS = 2 }\n"
           "inputs.a = { shape = [8], fill = \"iota\" }\n"
           "expected.result = { op = \"add_scalar\", args = [\"a\"], scalar = 1 }\n"
           "[[cases]]\nworkgroup_size = [8]\nworkgroups = [1]\nconstants = { STEPS = 3 }\n"
           "inputs.a = { shape = [16], fill = \"iota\" }\n"
           "expected.result = { op = \"add_scalar\", args = [\"a\"], scalar = 1 }\n" +
           extra;
}

Puzzle load(const std::string& extra) {
    auto p = parsePuzzle(puzzleText(extra), "p/puzzle.toml", "p");
    EXPECT_TRUE(p.ok()) << p.error().str();
    return p.ok() ? *p : Puzzle{};
}

// The traced buffers of the puzzle above, with their bindings.
struct Vars {
    uint32_t a, result, flags, s;
};
Vars declare(TraceBuilder& b) {
    Vars v{b.buffer("a", 16), b.buffer("result", 16), b.buffer("status", 8), b.shared("s", {16})};
    b.t.variables[v.result].decl.binding = 1;
    b.t.variables[v.flags].decl.binding = 2; // the kernel may call it anything: the binding counts
    return v;
}

TEST(ExpressionLimits, EvaluatedPerCaseAndLargestForThePuzzle) {
    Puzzle p = load("[limits]\nglobal_reads = \"2 * STEPS\"\nglobal_writes = 1\n");
    ASSERT_TRUE(p.limits.globalReadsExpr);
    EXPECT_EQ(p.limits.globalReadsExpr->text(), "2 * STEPS");
    EXPECT_EQ(p.limits.globalReads, 6u); // the largest over the cases, for one figure
    EXPECT_FALSE(p.limits.globalWritesExpr);
    EXPECT_EQ(caseChecks(p, p.cases[0]).limits.globalReads, 4u);
    EXPECT_EQ(caseChecks(p, p.cases[1]).limits.globalReads, 6u);
    EXPECT_EQ(caseChecks(p, p.cases[0]).limits.globalWrites, 1u);
}

TEST(ExpressionLimits, FindingNamesTheLimitItsExpressionAndItsValue) {
    Puzzle p = load("[limits]\nglobal_reads = \"2 * STEPS\"\n");
    TraceBuilder b({4, 1, 1});
    Vars v = declare(b);
    for (uint32_t i = 0; i < 5; ++i) // 5 reads: over case 1's 4, under case 2's 6
        b.read(2, v.a, i, 10 + i);
    TraceAnalysis one = analyzeCase(b.t, caseChecks(p, p.cases[0]));
    auto r = findingsOf(one, FindingKind::ReadLimit);
    ASSERT_EQ(r.size(), 1u) << allMessages(one);
    EXPECT_EQ(r[0]->message, "thread 2 makes 5 global reads; the puzzle allows global_reads = 2 * "
                             "STEPS, which is 4 in this case, per thread (the only thread over; "
                             "it went over at line 14)");
    EXPECT_EQ(one.limits.globalReads, 4u);
    EXPECT_TRUE(one.failsCase());
    TraceAnalysis two = analyzeCase(b.t, caseChecks(p, p.cases[1]));
    EXPECT_TRUE(two.findings.empty()) << allMessages(two);
}

const std::string kAtomicRule = "[[rules]]\ntext = \"Write flags only with atomics\"\n"
                                "atomic_writes_only = [\"flags\"]\n";

TEST(AtomicWritesOnly, APlainStoreIsAFindingQuotingTheRule) {
    Puzzle p = load(kAtomicRule);
    ASSERT_EQ(p.rules.size(), 1u);
    TraceBuilder b({4, 1, 1}, {2, 1, 1});
    Vars v = declare(b);
    b.atomic(0, v.flags, 0, 20);    // atomics are what the rule asks for
    b.write(5, v.flags, 1, 7, 41);  // thread 1 of workgroup 1: a plain store
    b.write(6, v.flags, 1, 7, 41);  // and another
    b.write(5, v.result, 5, 7, 50); // plain stores elsewhere are fine
    TraceAnalysis a = analyzeCase(b.t, caseChecks(p, p.cases[0]));
    auto r = findingsOf(a, FindingKind::Rule);
    ASSERT_EQ(r.size(), 1u) << allMessages(a);
    EXPECT_EQ(r[0]->message, "line 41: thread 5 (local 1 of workgroup 1) wrote status[1] with a "
                             "plain store; the statement says: \"Write flags only with atomics\" "
                             "(2 plain stores in all)");
    EXPECT_EQ(r[0]->line, 41u);
    EXPECT_EQ(r[0]->threads, (std::vector<uint64_t>{5}));
    EXPECT_EQ(r[0]->variable, static_cast<int>(v.flags));
    EXPECT_EQ(r[0]->index, 1u);
    EXPECT_EQ(r[0]->occurrences, 2u);
    EXPECT_TRUE(a.failsCase());
    EXPECT_EQ(std::string(findingKindName(FindingKind::Rule)), "rule");
}

TEST(AtomicWritesOnly, AtomicsAndReadsAlonePass) {
    Puzzle p = load(kAtomicRule);
    TraceBuilder b({4, 1, 1});
    Vars v = declare(b);
    b.atomic(0, v.flags, 0, 20).read(1, v.flags, 0, 21).write(1, v.result, 0, 1, 22);
    TraceAnalysis a = analyzeCase(b.t, caseChecks(p, p.cases[0]));
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
}

const std::string kTogetherRule = "[[rules]]\ntext = \"Load every element before counting\"\n"
                                  "reads_together = [\"a\"]\n";

// A loop that loads an element and counts it at once: thread 1's atomic on s[] comes between its
// reads of a[1] and a[5]. The finding names both reads, the atomic between them and its line.
TEST(ReadsTogether, AWriteOrAtomicBetweenTwoReadsIsAFinding) {
    Puzzle p = load(kTogetherRule);
    ASSERT_EQ(p.rules.size(), 1u);
    TraceBuilder b({4, 1, 1});
    Vars v = declare(b);
    for (uint32_t t = 0; t < 4; ++t)
        b.read(t, v.a, t, 30).atomic(t, v.s, 3, 31).read(t, v.a, t + 4, 30).atomic(t, v.s, 2, 31);
    TraceAnalysis a = analyzeCase(b.t, caseChecks(p, p.cases[0]));
    auto r = findingsOf(a, FindingKind::Rule);
    ASSERT_EQ(r.size(), 1u) << allMessages(a);
    EXPECT_EQ(r[0]->message, "line 31: thread 0 made an atomic on s[3] between its reads of a[0] "
                             "(line 30) and a[4] (line 30); the statement says: \"Load every "
                             "element before counting\" (4 threads)");
    EXPECT_EQ(r[0]->line, 31u);
    EXPECT_EQ(r[0]->variable, static_cast<int>(v.s));
    EXPECT_EQ(r[0]->occurrences, 4u);
    EXPECT_TRUE(a.failsCase());
}

// Every read first, then the atomics: no finding. Writes before the first read (clearing shared
// bins), reads of other buffers between, and a thread that reads once are all fine, as is a
// plain store that follows the last read.
TEST(ReadsTogether, ReadsInOneRunPass) {
    Puzzle p = load(kTogetherRule);
    TraceBuilder b({4, 1, 1});
    Vars v = declare(b);
    b.write(0, v.s, 0, 0, 20).read(0, v.a, 0, 30).read(0, v.flags, 0, 32).read(0, v.a, 4, 30);
    b.atomic(0, v.s, 1, 31).atomic(0, v.s, 2, 31).write(0, v.result, 0, 1, 40);
    b.read(1, v.a, 1, 30).write(1, v.result, 1, 1, 40);
    b.write(2, v.result, 2, 1, 40).read(2, v.flags, 0, 32).write(2, v.result, 2, 1, 40);
    TraceAnalysis a = analyzeCase(b.t, caseChecks(p, p.cases[0]));
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
    // A write to another buffer between two reads of a breaks the run too.
    b.read(3, v.a, 3, 30).write(3, v.result, 3, 1, 40).read(3, v.a, 7, 30);
    TraceAnalysis broken = analyzeCase(b.t, caseChecks(p, p.cases[0]));
    auto r = findingsOf(broken, FindingKind::Rule);
    ASSERT_EQ(r.size(), 1u) << allMessages(broken);
    EXPECT_TRUE(contains(r[0]->message, "line 40: thread 3 wrote result[3] between its reads of "
                                        "a[3] (line 30) and a[7] (line 30)"))
        << r[0]->message;
}

const std::string kPerThreadRule = "[[rules]]\ntext = \"No searching\"\ncount = \"reads\"\n"
                                   "of = \"shared\"\nper = \"thread\"\nat_most = \"WG - 1\"\n";

TEST(CountRule, PerThreadNamesTheWorstThreadAndWhereItWentOver) {
    Puzzle p = load(kPerThreadRule);
    TraceBuilder b({4, 1, 1});
    Vars v = declare(b);
    for (uint32_t t = 0; t < 4; ++t)
        b.write(t, v.s, t, 1, 5);
    b.barrierAll(6);
    for (uint32_t j = 0; j < 4; ++j) // thread 3 reads 4 cells: over WG - 1 = 3
        b.read(3, v.s, j, 30 + j);
    for (uint32_t j = 0; j < 3; ++j) // thread 2 reads 3: at the bound
        b.read(2, v.s, j, 30 + j);
    b.read(1, v.a, 0, 8).read(1, v.a, 1, 8).read(1, v.a, 2, 8).read(1, v.a, 3, 8); // not shared
    TraceAnalysis a = analyzeCase(b.t, caseChecks(p, p.cases[0]));
    auto r = findingsOf(a, FindingKind::Rule);
    ASSERT_EQ(r.size(), 1u) << allMessages(a);
    EXPECT_EQ(r[0]->message, "line 33: thread 3 read shared memory 4 times; the rule allows WG - 1 "
                             "= 3 per thread in this case; the statement says: \"No searching\"");
    EXPECT_EQ(r[0]->threads, (std::vector<uint64_t>{3}));
    EXPECT_EQ(r[0]->occurrences, 1u);
}

TEST(CountRule, PerWorkgroupSumsItsThreadsAndNamesTheBusiestLine) {
    Puzzle p = load("[[rules]]\ntext = \"O(n) adds\"\ncount = \"writes\"\nof = \"shared\"\n"
                    "per = \"workgroup\"\nat_most = \"2 * WG\"\n");
    TraceBuilder b({4, 1, 1}, {2, 1, 1});
    Vars v = declare(b);
    for (uint32_t t = 0; t < 8; ++t)
        b.write(t, v.s, t % 4, 1, 5).write(t, v.s, t % 4, 2, 7); // 8 per workgroup: at the bound
    b.write(4, v.s, 0, 3, 9);                                    // workgroup 1: 9
    b.atomic(0, v.result, 0, 11);                                // a buffer: not shared memory
    TraceAnalysis a = analyzeCase(b.t, caseChecks(p, p.cases[0]));
    auto r = findingsOf(a, FindingKind::Rule);
    ASSERT_EQ(r.size(), 1u) << allMessages(a);
    EXPECT_EQ(r[0]->message,
              "line 5: workgroup 1 wrote shared memory 9 times, its threads together (4 of them "
              "at this line); the rule allows 2 * WG = 8 per workgroup in this case; the "
              "statement says: \"O(n) adds\"");
    EXPECT_EQ(r[0]->threads, (std::vector<uint64_t>{4})); // the workgroup's first thread
}

// A bound that names the workgroup is each workgroup's own: workgroup x may write 2 * (x + 1)
// cells, so 3 writes are over in workgroup 0 and within in workgroup 1 (a causal attention's
// workgroup reads the keys up to its own last query).
TEST(CountRule, ABoundThatNamesTheWorkgroupIsEachWorkgroupsOwn) {
    Puzzle p = load("[[rules]]\ntext = \"t\"\ncount = \"writes\"\nof = \"shared\"\n"
                    "per = \"workgroup\"\nat_most = \"2 * (group_x + 1)\"\n");
    TraceBuilder b({4, 1, 1}, {3, 1, 1});
    Vars v = declare(b);
    for (uint32_t t : {4u, 5u, 6u, 8u, 9u, 10u, 11u, 11u}) // wg 1: 3 writes; wg 2: 5
        b.write(t, v.s, t % 4, 1, 5);
    EXPECT_TRUE(analyzeCase(b.t, caseChecks(p, p.cases[0])).findings.empty())
        << "3 of 4 in workgroup 1, 5 of 6 in workgroup 2";
    b.write(0, v.s, 0, 1, 6).write(1, v.s, 1, 1, 6).write(2, v.s, 2, 1, 6); // wg 0: 3 of 2
    TraceAnalysis a = analyzeCase(b.t, caseChecks(p, p.cases[0]));
    auto r = findingsOf(a, FindingKind::Rule);
    ASSERT_EQ(r.size(), 1u) << allMessages(a);
    EXPECT_EQ(r[0]->message,
              "line 6: workgroup 0 wrote shared memory 3 times, its threads together (3 of them "
              "at this line); the rule allows 2 * (group_x + 1) = 2 for this workgroup; the "
              "statement says: \"t\"");
    EXPECT_EQ(r[0]->threads, (std::vector<uint64_t>{0}));
}

TEST(CountRule, OfABufferCountsOnlyThatBufferAndAtomicsCountOnce) {
    Puzzle p = load("[[rules]]\ntext = \"t\"\ncount = \"accesses\"\nof = \"flags\"\n"
                    "per = \"thread\"\nat_most = 2\n");
    ASSERT_EQ(p.rules[0].target, RuleTargetKind::Buffer);
    TraceBuilder b({4, 1, 1});
    Vars v = declare(b);
    b.atomic(0, v.flags, 0, 3).read(0, v.flags, 1, 4); // 2 accesses: at the bound
    b.read(0, v.a, 0, 5).read(0, v.a, 1, 5).write(0, v.s, 0, 1, 6);
    EXPECT_TRUE(analyzeCase(b.t, caseChecks(p, p.cases[0])).findings.empty());
    b.write(1, v.flags, 1, 1, 7).read(1, v.flags, 1, 8).read(1, v.flags, 2, 9);
    TraceAnalysis a = analyzeCase(b.t, caseChecks(p, p.cases[0]));
    auto r = findingsOf(a, FindingKind::Rule);
    ASSERT_EQ(r.size(), 1u) << allMessages(a);
    EXPECT_TRUE(contains(r[0]->message, "thread 1 accessed the buffer 'status' 3 times; the rule "
                                        "allows 2 per thread;"))
        << r[0]->message;
}

TEST(CountRule, FromWorkgroupSizeLeavesSmallerCasesOut) {
    Puzzle p = load(kPerThreadRule + "from_workgroup_size = 8\n");
    EXPECT_TRUE(caseChecks(p, p.cases[0]).rules.empty()); // 4 threads
    auto big = caseChecks(p, p.cases[1]);                 // 8 threads
    ASSERT_EQ(big.rules.size(), 1u);
    EXPECT_EQ(big.rules[0].atMost, 7u);
}

TEST(CountRule, TwoRulesGiveTwoFindings) {
    Puzzle p = load(kAtomicRule + kPerThreadRule);
    TraceBuilder b({4, 1, 1});
    Vars v = declare(b);
    b.write(0, v.flags, 0, 1, 3);
    for (uint32_t j = 0; j < 5; ++j)
        b.read(0, v.s, j, 4);
    TraceAnalysis a = analyzeCase(b.t, caseChecks(p, p.cases[0]));
    EXPECT_EQ(findingsOf(a, FindingKind::Rule).size(), 2u) << allMessages(a);
}

} // namespace
} // namespace vkp
