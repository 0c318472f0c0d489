// walkthrough.toml: what loads, what is rejected (with file:line:col), and what validation
// against a solution's text and a synthetic trace reports. The real files are checked against
// real traces in tests/check/walkthroughs_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "judge/walkthrough_steps.h"
#include "support/trace_builder.h"

namespace vkp {
namespace {

using test::TraceBuilder;

// A puzzle with 2 cases; only the number of cases and the solution's name matter here.
Puzzle puzzle(const std::string& dir = "/nowhere") {
    Puzzle p;
    p.dir = dir;
    p.slug = "demo";
    p.solutionPath = dir + "/solution.comp";
    p.cases.resize(2);
    return p;
}

// Eight lines; line 4 is blank, line 8 a barrier.
const std::string kSolution = "#version 450\nvoid main() {\n    uint t = 0u;\n\n    cache[t] = "
                              "a[t];\n    x = 1;\n    y = 2;\n    barrier();\n}\n";

const std::string kGood = R"(title = "Demo"
case = 2
[[steps]]
title = "Load"
text = """
Thread 1 loads."""
lines = [5, "6-7"]
round = 0
workgroup = [1]
threads = [[5], [6, 0, 0]]
cells = [{ variable = "cache", index = [1] }, { variable = "a", index = 5 }]

[[steps]]
title = "Plain"
text = "No focus at all."
)";

Result<Walkthrough> parse(const std::string& text) {
    return parseWalkthrough(text, "w.toml", puzzle());
}

TEST(WalkthroughParse, ReadsEveryField) {
    auto w = parse(kGood);
    ASSERT_TRUE(w.ok()) << w.error().str();
    EXPECT_EQ(w->title, "Demo");
    EXPECT_EQ(w->caseIndex, 1u);
    ASSERT_EQ(w->steps.size(), 2u);
    const WalkthroughStep& s = w->steps[0];
    EXPECT_EQ(s.title, "Load");
    EXPECT_EQ(s.text, "Thread 1 loads.");
    EXPECT_EQ(s.focus.lines, (std::vector<uint32_t>{5, 6, 7}));
    EXPECT_EQ(s.focus.round, 0u);
    EXPECT_EQ(s.focus.workgroup, (std::array<uint32_t, 3>{1, 0, 0}));
    ASSERT_EQ(s.focus.threads.size(), 2u);
    EXPECT_EQ(s.focus.threads[0], (std::array<uint32_t, 3>{5, 0, 0}));
    ASSERT_EQ(s.focus.cells.size(), 2u);
    EXPECT_EQ(s.focus.cells[0].variable, "cache");
    EXPECT_EQ(s.focus.cells[1].index, (std::vector<uint32_t>{5}));
    EXPECT_EQ(s.where.line, 3);
    EXPECT_EQ(s.where.file, "w.toml");
    EXPECT_FALSE(w->steps[1].focus.round.has_value());
    EXPECT_TRUE(w->steps[1].focus.lines.empty());
}

TEST(WalkthroughParse, CaseDefaultsToTheFirst) {
    auto w = parse("title = \"T\"\n[[steps]]\ntitle = \"s\"\ntext = \"t\"\n");
    ASSERT_TRUE(w.ok()) << w.error().str();
    EXPECT_EQ(w->caseIndex, 0u);
}

struct Bad {
    const char* name;
    std::string toml;
    const char* message;
    int line;
    int column;
};

TEST(WalkthroughParse, BadFilesPointAtTheCulprit) {
    const std::string step = "[[steps]]\ntitle = \"s\"\ntext = \"t\"\n";
    const std::vector<Bad> rows = {
        {"syntax", "title = = 1\n", "invalid TOML", 1, 9},
        {"no title", "case = 1\n" + step, "missing field 'title'", 1, 1},
        {"unknown top field", "title = \"T\"\nstep = 1\n" + step, "unknown field 'step'", 2, 1},
        {"case past the cases", "title = \"T\"\ncase = 3\n" + step,
         "'case' is 3; it must be between 1 and 2", 2, 8},
        {"case zero", "title = \"T\"\ncase = 0\n" + step, "between 1 and 2", 2, 8},
        {"no steps", "title = \"T\"\n", "at least one [[steps]]", 1, 1},
        {"step without text", "title = \"T\"\n[[steps]]\ntitle = \"s\"\n", "missing field 'text'",
         2, 1},
        {"unknown step field", "title = \"T\"\n" + step + "rounds = 2\n",
         "unknown field 'rounds' in a [[steps]] table", 5, 1},
        {"line zero", "title = \"T\"\n" + step + "lines = [0]\n", "'lines' is 0", 5, 10},
        {"bad range", "title = \"T\"\n" + step + "lines = [\"9-3\"]\n",
         "'9-3' is not a range of lines", 5, 10},
        {"negative round", "title = \"T\"\n" + step + "round = -1\n", "'round' is -1", 5, 9},
        {"four numbers", "title = \"T\"\n" + step + "threads = [[1, 2, 3, 4]]\n", "1 to 3 numbers",
         5, 12},
        {"thread not an array", "title = \"T\"\n" + step + "threads = [5]\n",
         "'threads' must be an array", 5, 12},
        {"cell not a table", "title = \"T\"\n" + step + "cells = [\"cache\"]\n", "must be a table",
         5, 10},
        {"cell without index", "title = \"T\"\n" + step + "cells = [{ variable = \"c\" }]\n",
         "missing field 'index'", 5, 10},
        {"cell with 3 numbers",
         "title = \"T\"\n" + step + "cells = [{ variable = \"c\", index = [1, 2, 3] }]\n",
         "[i] or [row, col]", 5, 36},
        {"dispatch in a single-pass puzzle", "title = \"T\"\n" + step + "dispatch = 2\n",
         "'dispatch' is for multi-pass puzzles; demo runs one dispatch per case", 5, 12},
        {"step case past the cases", "title = \"T\"\n" + step + "case = 3\n",
         "'case' is 3; it must be between 1 and 2", 5, 8},
        {"unknown view", "title = \"T\"\n" + step + "view = \"timeline\"\n",
         "unknown view 'timeline' (the one a step can name is \"lookback\")", 5, 8},
        {"look-back view without [lookback]", "title = \"T\"\n" + step + "view = \"lookback\"\n",
         "view = \"lookback\" needs a [lookback] table in puzzle.toml, which demo has not", 5, 8},
        {"unknown cell field",
         "title = \"T\"\n" + step + "cells = [{ variable = \"c\", idx = 1 }]\n",
         "unknown field 'idx' in a cell", 5, 28},
    };
    for (const Bad& b : rows) {
        auto w = parse(b.toml);
        ASSERT_FALSE(w.ok()) << b.name;
        EXPECT_NE(w.error().message.find(b.message), std::string::npos)
            << b.name << ": " << w.error().str();
        EXPECT_EQ(w.error().where.file, "w.toml") << b.name;
        EXPECT_EQ(w.error().where.line, b.line) << b.name << ": " << w.error().str();
        EXPECT_EQ(w.error().where.column, b.column) << b.name << ": " << w.error().str();
        EXPECT_EQ(w.error().kind, ErrorKind::PuzzleFile) << b.name;
    }
}

TEST(WalkthroughLoad, AbsentFileIsNoWalkthroughAndAPresentOneLoads) {
    auto dir =
        std::filesystem::temp_directory_path() / ("vkp-walkthrough-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    Puzzle p = puzzle(dir.string());
    EXPECT_FALSE(hasWalkthrough(p));
    auto none = loadWalkthrough(p);
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none->has_value());

    std::ofstream(dir / kWalkthroughFile) << kGood;
    EXPECT_TRUE(hasWalkthrough(p));
    auto some = loadWalkthrough(p);
    ASSERT_TRUE(some.ok()) << some.error().str();
    ASSERT_TRUE(some->has_value());
    EXPECT_EQ((*some)->file, (dir / kWalkthroughFile).string());
    EXPECT_EQ((*some)->steps.size(), 2u);

    std::ofstream(dir / kWalkthroughFile) << "title = \"T\"\ncase = 7\n";
    auto bad = loadWalkthrough(p);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().where.file, (dir / kWalkthroughFile).string());
    EXPECT_EQ(bad.error().where.line, 2);
    std::filesystem::remove_all(dir);
}

// Two workgroups of 4: threads 0..3 and 4..7. Each stores a[t] into cache[local] on line 5, and
// reaches the barrier on line 8; workgroup 1 then reads once more (round 1).
Trace demoTrace() {
    TraceBuilder b({4, 1, 1}, {2, 1, 1});
    uint32_t a = b.buffer("a", 8);
    uint32_t cache = b.shared("cache", {4});
    uint32_t tile = b.shared("tile", {2, 3});
    for (uint64_t t = 0; t < 8; ++t) {
        b.read(t, a, static_cast<uint32_t>(t), 5, static_cast<uint32_t>(t));
        b.write(t, cache, static_cast<uint32_t>(t % 4), static_cast<uint32_t>(t), 5);
        b.barrier(t, 8);
    }
    b.read(5, cache, 0, 7);
    (void)tile;
    return b.t;
}

std::string messages(const std::vector<Diagnostic>& ds) {
    std::string s;
    for (const Diagnostic& d : ds)
        s += d.str() + "\n";
    return s;
}

std::vector<Diagnostic> validate(const std::string& stepFields) {
    auto w = parse("title = \"T\"\n[[steps]]\ntitle = \"S\"\ntext = \"t\"\n" + stepFields);
    EXPECT_TRUE(w.ok()) << w.error().str();
    if (!w.ok()) return {};
    return validateWalkthrough(*w, puzzle(), kSolution, demoTrace());
}

TEST(WalkthroughValidate, AStepThatFitsTheTraceHasNoDiagnostics) {
    EXPECT_EQ(
        messages(validate(
            "lines = [5, 8]\nround = 1\nworkgroup = [1]\nthreads = [[5]]\n"
            "cells = [{ variable = \"cache\", index = [3] }, { variable = \"a\", index = [7] }, "
            "{ variable = \"tile\", index = [1, 2] }]\n")),
        "");
    EXPECT_EQ(messages(validate("lines = [\"3-5\"]\n")), "") << "a blank line inside a run is fine";
}

struct Problem {
    std::string fields;
    const char* message;
    SeverityKind severity = SeverityKind::Error;
};

TEST(WalkthroughValidate, EachProblemIsOneDiagnosticAtTheStep) {
    const std::vector<Problem> rows = {
        {"lines = [10]\n", "line 10 is past the end of solution.comp (9 lines)"},
        {"lines = [4]\n", "line 4 of solution.comp is blank"},
        {"lines = [\"4-5\"]\n", "line 4 of solution.comp is blank"},
        {"workgroup = [2]\n", "workgroup (2) is outside the launch (2 workgroups)"},
        {"workgroup = [0, 1]\n", "workgroup (0, 1) is outside the launch"},
        {"threads = [[8]]\n", "thread (8) is outside the launch (8 threads)"},
        {"round = 2\nworkgroup = [1]\n",
         "round 2 did not happen in workgroup 1 (its rounds are 0 to 1)"},
        {"round = 1\nworkgroup = [0]\n",
         "round 1 did not happen in workgroup 0 (its rounds are 0 to 0)"},
        {"round = 1\nthreads = [[2]]\n", "round 1 did not happen in workgroup 0"},
        {"cells = [{ variable = \"cahce\", index = [0] }]\n",
         "no traced array of that name (it has: a, cache, tile)"},
        {"cells = [{ variable = \"cache\", index = [4] }]\n",
         "cell cache[4] lies outside 'cache' (4 in this case)"},
        {"cells = [{ variable = \"cache\", index = [0, 1] }]\n", "'cache' is one-dimensional"},
        {"cells = [{ variable = \"tile\", index = [2, 0] }]\n",
         "cell tile[2][0] lies outside 'tile' (2 x 3 in this case)"},
        {"cells = [{ variable = \"tile\", index = [0, 3] }]\n", "lies outside 'tile'"},
        {"cells = [{ variable = \"a\", index = [8] }]\n",
         "cell a[8] lies outside 'a' (8 in this case)"},
        {"lines = [3]\nthreads = [[1]]\n",
         "none of its threads touched memory or a barrier on its lines", SeverityKind::Warning},
        {"workgroup = [1]\nthreads = [[1]]\n", "thread (1) is not in workgroup (1)",
         SeverityKind::Warning},
    };
    for (const Problem& p : rows) {
        auto ds = validate(p.fields);
        ASSERT_EQ(ds.size(), 1u) << p.fields << messages(ds);
        EXPECT_NE(ds[0].message.find(p.message), std::string::npos) << p.fields << messages(ds);
        EXPECT_NE(ds[0].message.find("step 1 (S)"), std::string::npos) << ds[0].message;
        EXPECT_EQ(ds[0].severity, p.severity) << p.fields;
        EXPECT_EQ(ds[0].file, "w.toml");
        EXPECT_EQ(ds[0].line, 2) << "the diagnostic points at the [[steps]] table";
    }
}

TEST(WalkthroughValidate, SeveralProblemsGiveSeveralDiagnostics) {
    auto ds = validate(
        "lines = [4, 99]\nthreads = [[9], [10]]\ncells = [{ variable = \"x\", index = 0 }]\n");
    EXPECT_EQ(ds.size(), 5u) << messages(ds);
    EXPECT_TRUE(hasErrors(ds));
}

// A multi-pass puzzle's steps name their dispatch: each is checked against that dispatch's
// kernel text and trace, and messages name the kernel's file.
TEST(WalkthroughValidate, AStepIsCheckedAgainstItsDispatch) {
    Puzzle p = puzzle();
    p.kernels = {KernelDecl{"first", "", "/nowhere/solution/first.comp", {}},
                 KernelDecl{"second", "", "/nowhere/solution/second.comp", {}}};
    p.passes.resize(2);
    p.passes[1].kernel = 1;
    auto w = parseWalkthrough("title = \"T\"\n[[steps]]\ntitle = \"A\"\ntext = \"t\"\n"
                              "lines = [5]\nthreads = [[5]]\n"
                              "[[steps]]\ntitle = \"B\"\ntext = \"t\"\ndispatch = 2\nlines = [3]\n",
                              "w.toml", p);
    ASSERT_TRUE(w.ok()) << w.error().str();
    EXPECT_EQ(w->steps[0].focus.dispatch, 0u);
    EXPECT_EQ(w->steps[1].focus.dispatch, 1u);
    Trace t = demoTrace();
    std::vector<WalkthroughSubject> subjects{{kSolution, "first.comp", &t},
                                             {"#version 450\nvoid main() {}\n", "second.comp", &t}};
    EXPECT_EQ(messages(validateWalkthrough(*w, p, subjects)),
              "w.toml:7:1: error: step 2 (B): line 3 is past the end of second.comp (2 lines)\n");
    // A dispatch that did not run (no trace) is one error at its step.
    subjects[1].trace = nullptr;
    EXPECT_NE(messages(validateWalkthrough(*w, p, subjects)).find("dispatch 2 has no trace"),
              std::string::npos);
    auto past = parseWalkthrough(
        "title = \"T\"\n[[steps]]\ntitle = \"A\"\ntext = \"t\"\ndispatch = 3\n", "w.toml", p);
    ASSERT_FALSE(past.ok());
    EXPECT_NE(past.error().message.find("between 1 and 2"), std::string::npos)
        << past.error().str();
}

// An official solution that runs untraced (cooperative matrices): steps of lines pass, and a
// step that names what only a trace shows is one error at that step.
TEST(WalkthroughValidate, AnUntracedSolutionsStepsPointAtLinesOnly) {
    auto lines =
        parse("title = \"T\"\n[[steps]]\ntitle = \"A\"\ntext = \"t\"\nlines = [\"5-7\"]\n");
    ASSERT_TRUE(lines.ok()) << lines.error().str();
    EXPECT_EQ(messages(validateUntracedWalkthrough(*lines, puzzle(), kSolution)), "");
    auto past = parse("title = \"T\"\n[[steps]]\ntitle = \"A\"\ntext = \"t\"\nlines = [12]\n");
    ASSERT_TRUE(past.ok());
    EXPECT_NE(messages(validateUntracedWalkthrough(*past, puzzle(), kSolution))
                  .find("line 12 is past the end of solution.comp"),
              std::string::npos);
    for (const char* traced : {"threads = [[5]]\n", "workgroup = [1]\n", "round = 0\n",
                               "cells = [{ variable = \"a\", index = [0] }]\n"}) {
        auto w = parse("title = \"T\"\n[[steps]]\ntitle = \"A\"\ntext = \"t\"\nlines = [5]\n" +
                       std::string(traced));
        ASSERT_TRUE(w.ok()) << traced << w.error().str();
        std::string m = messages(validateUntracedWalkthrough(*w, puzzle(), kSolution));
        EXPECT_NE(m.find("step 1 (A): names threads, a workgroup, a round or cells"),
                  std::string::npos)
            << traced << m;
        EXPECT_EQ(std::count(m.begin(), m.end(), '\n'), 1) << m;
    }
}

// A step may show another case than the walkthrough's (one traced under its forced schedule) and
// the Look-back view: it is checked against that case's trace, and a case nobody traced is one
// error at the step.
TEST(WalkthroughValidate, AStepIsCheckedAgainstItsCase) {
    Puzzle p = puzzle();
    p.buffers = {BufferDecl{"a", 0, ElementKind::Uint}, BufferDecl{"status", 2, ElementKind::Uint}};
    p.lookback = LookbackDecl{};
    p.lookback->status = 1;
    auto w = parseWalkthrough("title = \"T\"\n[[steps]]\ntitle = \"A\"\ntext = \"t\"\n"
                              "[[steps]]\ntitle = \"B\"\ntext = \"t\"\ncase = 2\n"
                              "view = \"lookback\"\nthreads = [[5]]\n",
                              "w.toml", p);
    ASSERT_TRUE(w.ok()) << w.error().str();
    EXPECT_EQ(stepCase(*w, w->steps[0]), 0u);
    EXPECT_EQ(stepCase(*w, w->steps[1]), 1u);
    EXPECT_FALSE(w->steps[0].focus.lookback);
    EXPECT_TRUE(w->steps[1].focus.lookback);
    EXPECT_EQ(walkthroughCases(*w), (std::vector<size_t>{0, 1}));
    Trace small = demoTrace(); // 8 threads, no status buffer
    WalkthroughCaseSubjects cases{{0, {{kSolution, "solution.comp", &small}}}};
    EXPECT_EQ(messages(validateWalkthrough(*w, p, cases)),
              "w.toml:5:1: error: step 2 (B): case 2 was not traced\n");
    TraceBuilder b({4, 1, 1}, {1, 1, 1});
    b.buffer("a", 4);
    Trace one = b.t; // 4 threads: thread 5 is outside it
    cases[1] = {{kSolution, "solution.comp", &one}};
    std::string m = messages(validateWalkthrough(*w, p, cases));
    EXPECT_NE(m.find("step 2 (B): thread (5) is outside the launch (4 threads)"), std::string::npos)
        << m;
    EXPECT_NE(m.find("step 2 (B): view = \"lookback\", but dispatch 1 does not use 'status'"),
              std::string::npos)
        << m;
    EXPECT_EQ(m.find("step 1"), std::string::npos) << "step 1 is checked against case 1: " << m;
}

TEST(WalkthroughIds, GlobalIdsAndWorkgroupsMapToInvocations) {
    TraceLaunch l{{2, 2, 1}, {2, 3, 1}}; // 4 x 6 threads, 4 per workgroup
    EXPECT_EQ(invocationOfGlobalId(l, {0, 0, 0}), 0u);
    EXPECT_EQ(invocationOfGlobalId(l, {1, 1, 0}), 3u);
    EXPECT_EQ(invocationOfGlobalId(l, {2, 0, 0}), 4u);  // workgroup (1, 0), local 0
    EXPECT_EQ(invocationOfGlobalId(l, {3, 5, 0}), 23u); // workgroup (1, 2), local (1, 1)
    EXPECT_FALSE(invocationOfGlobalId(l, {4, 0, 0}));
    EXPECT_FALSE(invocationOfGlobalId(l, {0, 0, 1}));
    EXPECT_EQ(workgroupIndex(l, {1, 2, 0}), 5u);
    EXPECT_FALSE(workgroupIndex(l, {2, 0, 0}));
    for (uint64_t inv = 0; inv < l.invocations(); ++inv) {
        InvocationIds ids = invocationIds(l, inv);
        EXPECT_EQ(invocationOfGlobalId(l, ids.global), inv);
    }
    WalkthroughFocus f;
    EXPECT_EQ(focusedWorkgroup(f, l), 0u);
    f.threads = {{3, 5, 0}};
    EXPECT_EQ(focusedWorkgroup(f, l), 5u);
    f.workgroup = std::array<uint32_t, 3>{1, 1, 0};
    EXPECT_EQ(focusedWorkgroup(f, l), 3u);
}

TEST(WalkthroughResolve, StepStateHasTheSnapshotThreadsAndCells) {
    Trace t = demoTrace();
    TraceAnalysis a = analyzeTrace(t, {});
    auto w = parse(
        "title = \"T\"\n[[steps]]\ntitle = \"S\"\ntext = \"t\"\nround = 0\nthreads = [[5], [99]]\n"
        "cells = [{ variable = \"cache\", index = [1] }, { variable = \"tile\", index = [1, 1] }, "
        "{ variable = \"nope\", index = 0 }]\n");
    ASSERT_TRUE(w.ok());
    WalkthroughStepState s = resolveStep(w->steps[0].focus, t, a);
    EXPECT_EQ(s.workgroup, 1u);
    EXPECT_EQ(s.invocations, (std::vector<uint64_t>{5}));
    ASSERT_NE(s.shared, nullptr);
    EXPECT_EQ(s.shared->round, 0u);
    EXPECT_EQ(s.shared->values[1], (std::vector<uint32_t>{4, 5, 6, 7}))
        << "workgroup 1's cache after round 0";
    ASSERT_EQ(s.cells.size(), 2u);
    EXPECT_TRUE(s.highlighted(1, 1));
    EXPECT_TRUE(s.highlighted(2, 4)); // tile[1][1] in a 2 x 3 array
    EXPECT_FALSE(s.highlighted(1, 0));

    // Without a round, a step that shows shared cells sees the end of the kernel.
    WalkthroughFocus end;
    end.workgroup = std::array<uint32_t, 3>{1, 0, 0};
    end.cells = {{"cache", {0}}};
    WalkthroughStepState e = resolveStep(end, t, a);
    EXPECT_EQ(e.round, 1u);
    ASSERT_NE(e.shared, nullptr);
    EXPECT_EQ(e.shared->round, 1u);
    // Only buffer cells and no round: no shared memory to show.
    WalkthroughFocus buf;
    buf.cells = {{"a", {1}}};
    EXPECT_EQ(resolveStep(buf, t, a).shared, nullptr);
}

} // namespace
} // namespace vkp
