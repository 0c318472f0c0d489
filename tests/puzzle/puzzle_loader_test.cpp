// parsePuzzle on valid text, materializeCase, loadPuzzleSet on a temporary tree and on the real
// puzzles. Rejected files are covered in puzzle_loader_errors_test.cpp.
#include <gtest/gtest.h>

#include <map>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "puzzle/puzzle_loader.h"
#include "puzzle/track_order.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

const char* kToyToml = R"(title = "Toy"
track = "classic"
order = 7
statement = """
Add ten.
"""
hints = ["first hint", "second hint"]
tolerance = 0.001

[limits]
global_reads = 1
global_writes = 2

[[buffers]]
name = "a"
binding = 0
type = "float"
role = "input"

[[buffers]]
name = "tmp"
binding = 2
type = "int"
role = "scratch"

[[buffers]]
name = "result"
binding = 5
type = "float"
role = "output"
dims = 2

[[constants]]
name = "SIZE"
id = 3

[[constants]]
name = "STRIDE"
id = 9

[[cases]]
name = "first"
workgroup_size = [4, 2]
workgroups = [3]
constants = { SIZE = 6, STRIDE = 4294967295 }
inputs.a = { shape = [6], fill = "iota", start = 1, step = 2 }
inputs.tmp = { shape = [2], fill = "constant", value = -4 }
expected.result = { op = "add_scalar", args = ["a"], scalar = 10, shape = [2, 3] }

[[cases]]
workgroup_size = [1]
workgroups = [2, 3, 4]
constants = { SIZE = 4, STRIDE = -1 }
inputs.a = { shape = [2, 2], values = [[0, 1], [2, 3]] }
inputs.tmp = { shape = [5], fill = "random", seed = 42, min = -3, max = 3 }
expected.result = { shape = [4], values = [1.5, -2, 0, 8] }
)";

Puzzle parseToy() {
    auto p = parsePuzzle(kToyToml, "puzzles/07-foo/puzzle.toml", "puzzles/07-foo");
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().str());
    return p.ok() ? *p : Puzzle{};
}

std::vector<double> values(const BufferData& b) {
    std::vector<double> v;
    for (uint64_t i = 0; i < b.words.size(); ++i)
        v.push_back(b.get(i));
    return v;
}

using V = std::vector<double>;

TEST(PuzzleLoader, ParsesEveryTopLevelField) {
    Puzzle p = parseToy();
    EXPECT_EQ(p.title, "Toy");
    EXPECT_EQ(p.folder, "07-foo");
    EXPECT_EQ(p.slug, "foo"); // folder name without "NN-"
    EXPECT_EQ(p.number, 7);
    EXPECT_EQ(p.file, "puzzles/07-foo/puzzle.toml");
    EXPECT_EQ(p.dir, "puzzles/07-foo");
    EXPECT_EQ(p.track, "classic");
    EXPECT_EQ(p.order, 7);
    EXPECT_EQ(p.statement, "Add ten.\n");
    EXPECT_EQ(p.hints, (std::vector<std::string>{"first hint", "second hint"}));
    EXPECT_DOUBLE_EQ(p.tolerance, 0.001);
    EXPECT_EQ(p.limits.globalReads, 1u);
    EXPECT_EQ(p.limits.globalWrites, 2u);
    EXPECT_EQ(p.starterPath, (fs::path("puzzles/07-foo") / "starter.comp").string());
    EXPECT_EQ(p.solutionPath, (fs::path("puzzles/07-foo") / "solution.comp").string());
    EXPECT_EQ(p.displayName(), "7. Toy");
}

TEST(PuzzleLoader, ParsesBuffersAndConstants) {
    Puzzle p = parseToy();
    ASSERT_EQ(p.buffers.size(), 3u);
    EXPECT_EQ(p.buffers[0].name, "a");
    EXPECT_EQ(p.buffers[0].binding, 0u);
    EXPECT_EQ(p.buffers[0].type, ElementKind::Float);
    EXPECT_EQ(p.buffers[0].role, RoleKind::Input);
    EXPECT_EQ(p.buffers[0].dims, 1);
    EXPECT_EQ(p.buffers[1].type, ElementKind::Int);
    EXPECT_EQ(p.buffers[1].role, RoleKind::Scratch);
    EXPECT_EQ(p.buffers[2].binding, 5u);
    EXPECT_EQ(p.buffers[2].role, RoleKind::Output);
    EXPECT_EQ(p.buffers[2].dims, 2);
    EXPECT_EQ(p.findBuffer(5), &p.buffers[2]);
    EXPECT_EQ(p.findBuffer(1), nullptr);
    EXPECT_EQ(p.bufferIndex("tmp"), 1u);
    EXPECT_EQ(p.bufferIndex("nope"), std::nullopt);
    ASSERT_EQ(p.constants.size(), 2u);
    EXPECT_EQ(p.constants[0].name, "SIZE");
    EXPECT_EQ(p.constants[0].id, 3u);
    EXPECT_EQ(p.constants[1].name, "STRIDE");
    EXPECT_EQ(p.constants[1].id, 9u);
}

TEST(PuzzleLoader, ParsesCases) {
    Puzzle p = parseToy();
    ASSERT_EQ(p.cases.size(), 2u);
    const TestCase& c0 = p.cases[0];
    EXPECT_EQ(c0.name, "first");
    EXPECT_EQ(c0.workgroupSize, (std::array<uint32_t, 3>{4, 2, 1}));
    EXPECT_EQ(c0.workgroups, (std::array<uint32_t, 3>{3, 1, 1}));
    EXPECT_EQ(c0.threadCount(), 24u);
    EXPECT_EQ(c0.constants, (std::map<uint32_t, uint32_t>{{3, 6}, {9, 4294967295u}}));
    EXPECT_EQ(c0.where.file, "puzzles/07-foo/puzzle.toml");
    EXPECT_GT(c0.where.line, 0);
    ASSERT_EQ(c0.data.size(), 3u);
    EXPECT_EQ(c0.data[0]->kind, DataSpec::Kind::Iota);
    EXPECT_EQ(c0.data[0]->start, 1);
    EXPECT_EQ(c0.data[0]->step, 2);
    EXPECT_EQ(c0.data[1]->kind, DataSpec::Kind::Constant);
    EXPECT_EQ(c0.data[1]->value, -4);
    const DataSpec& e = *c0.data[2];
    EXPECT_EQ(e.kind, DataSpec::Kind::Op);
    EXPECT_EQ(e.op, "add_scalar");
    EXPECT_EQ(e.args, (std::vector<size_t>{0}));
    EXPECT_EQ(e.params, (std::map<std::string, double>{{"scalar", 10}}));
    EXPECT_EQ(e.shape, (Shape{{2, 3}})); // the given shape re-views the op's [6]

    const TestCase& c1 = p.cases[1];
    EXPECT_EQ(c1.name, "");
    EXPECT_EQ(c1.workgroups, (std::array<uint32_t, 3>{2, 3, 4}));
    EXPECT_EQ(c1.threadCount(), 24u);
    EXPECT_EQ(c1.constants.at(9), 0xFFFFFFFFu); // -1 as a bit pattern
    EXPECT_EQ(c1.data[1]->kind, DataSpec::Kind::Random);
    EXPECT_EQ(c1.data[1]->seed, 42u);
    EXPECT_EQ(c1.data[1]->min, -3);
    EXPECT_EQ(c1.data[1]->max, 3);
}

TEST(PuzzleLoader, ExplicitSlugAndKernelNamesWin) {
    std::string text =
        std::string("slug = \"other\"\nstarter = \"s.comp\"\nsolution = \"sol/x.comp\"\n") +
        kToyToml;
    auto p = parsePuzzle(text, "p.toml", "/tmp/12-thing");
    ASSERT_TRUE(p.ok()) << p.error().str();
    EXPECT_EQ(p->slug, "other");
    EXPECT_EQ(p->number, 12);
    EXPECT_EQ(p->starterPath, (fs::path("/tmp/12-thing") / "s.comp").string());
    EXPECT_EQ(p->solutionPath, (fs::path("/tmp/12-thing") / "sol/x.comp").string());
    EXPECT_DOUBLE_EQ(p->tolerance, 0.001);
}

TEST(PuzzleLoader, FolderWithoutNumberKeepsItsName) {
    auto p = parsePuzzle(kToyToml, "p.toml", "/tmp/sandbox");
    ASSERT_TRUE(p.ok()) << p.error().str();
    EXPECT_EQ(p->slug, "sandbox");
    EXPECT_EQ(p->number, 0);
    EXPECT_EQ(p->displayName(), "Toy");
}

TEST(MaterializeCase, IotaConstantAndOpExpectedOutputs) {
    Puzzle p = parseToy();
    auto d = materializeCase(p, 0);
    ASSERT_TRUE(d.ok()) << d.error().str();
    ASSERT_EQ(d->initial.size(), 3u);
    EXPECT_EQ(values(d->initial[0]), (V{1, 3, 5, 7, 9, 11}));
    EXPECT_EQ(d->initial[0].type, ElementKind::Float);
    EXPECT_EQ(values(d->initial[1]), (V{-4, -4}));
    EXPECT_EQ(d->initial[1].type, ElementKind::Int);
    // Outputs start poisoned, in the expected shape: every cell "unwritten".
    EXPECT_EQ(d->initial[2].shape, (Shape{{2, 3}}));
    EXPECT_EQ(d->initial[2].words, std::vector<uint32_t>(6, poisonWord(d->initial[2].type)));
    EXPECT_EQ(d->initial[2].format(5), "unwritten");
    EXPECT_FALSE(d->expected[0].has_value());
    EXPECT_FALSE(d->expected[1].has_value());
    ASSERT_TRUE(d->expected[2].has_value());
    EXPECT_EQ(d->expected[2]->shape, (Shape{{2, 3}}));
    EXPECT_EQ(values(*d->expected[2]), (V{11, 13, 15, 17, 19, 21}));
}

// Issue 22: `each` for inputs and expected outputs, with the case's constants and N, WG.
const char* kEachToml = R"~(title = "Each"
track = "classic"
order = 1
statement = "s"
hints = ["h"]

[[buffers]]
name = "a"
binding = 0
type = "int"
role = "input"

[[buffers]]
name = "m"
binding = 1
type = "float"
role = "input"
dims = 2

[[buffers]]
name = "result"
binding = 2
type = "int"
role = "output"

[[buffers]]
name = "t"
binding = 3
type = "float"
role = "output"
dims = 2

[[constants]]
name = "K"
id = 3

[[cases]]
workgroup_size = [4]
workgroups = ["ceil_div(N, WG)"]
constants = { K = 3 }
inputs.a = { shape = [6], each = "(i * 7) % 5 - 2" }
inputs.m = { shape = [2, 3], each = "r * 10 + c + 0.5" }
expected.result = { each = "a[n - 1 - i] * K + N * 100 + WG" }
expected.t = { shape = [3, 2], each = "m[c, r]" }
)~";

TEST(MaterializeCase, EachFillsInputsAndComputesExpectedValues) {
    auto p = parsePuzzle(kEachToml, "puzzles/05-each/puzzle.toml", "puzzles/05-each");
    ASSERT_TRUE(p.ok()) << p.error().str();
    EXPECT_EQ(p->cases[0].data[0]->kind, DataSpec::Kind::Each);
    EXPECT_FALSE(p->cases[0].data[2]->shapeGiven); // the first input's shape
    EXPECT_TRUE(p->cases[0].data[3]->shapeGiven);
    auto d = materializeCase(*p, 0);
    ASSERT_TRUE(d.ok()) << d.error().str();
    EXPECT_EQ(values(d->initial[0]), (V{-2, 0, 2, -1, 1, -2}));
    EXPECT_EQ(values(d->initial[1]), (V{0.5, 1.5, 2.5, 10.5, 11.5, 12.5}));
    ASSERT_TRUE(d->expected[2]);
    EXPECT_EQ(d->expected[2]->shape, (Shape{{6}}));
    EXPECT_EQ(values(*d->expected[2]), (V{598, 607, 601, 610, 604, 598}));
    EXPECT_EQ(d->expected[3]->shape, (Shape{{3, 2}}));
    EXPECT_EQ(values(*d->expected[3]), (V{0.5, 10.5, 1.5, 11.5, 2.5, 12.5}));
}

TEST(MaterializeCase, NestedValuesAndWrittenOutExpected) {
    Puzzle p = parseToy();
    auto d = materializeCase(p, 1);
    ASSERT_TRUE(d.ok()) << d.error().str();
    EXPECT_EQ(d->initial[0].shape, (Shape{{2, 2}}));
    EXPECT_EQ(values(d->initial[0]), (V{0, 1, 2, 3}));
    EXPECT_EQ(values(*d->expected[2]), (V{1.5, -2, 0, 8}));
}

TEST(MaterializeCase, RandomIsDeterministicAndWithinBounds) {
    Puzzle p = parseToy();
    DataSpec& spec = *p.cases[1].data[1];
    spec.shape = Shape{{200}};
    auto first = materializeCase(p, 1);
    auto again = materializeCase(p, 1);
    ASSERT_TRUE(first.ok() && again.ok());
    const BufferData& r = first->initial[1];
    EXPECT_EQ(r.words, again->initial[1].words);
    std::vector<double> v = values(r);
    for (double x : v) {
        EXPECT_GE(x, -3);
        EXPECT_LE(x, 3);
    }
    // 200 draws from 7 values: every value shows up, so the generator is not stuck.
    for (int k = -3; k <= 3; ++k)
        EXPECT_NE(std::count(v.begin(), v.end(), k), 0) << k;
    spec.seed = 43;
    auto other = materializeCase(p, 1);
    ASSERT_TRUE(other.ok());
    EXPECT_NE(other->initial[1].words, r.words);
}

TEST(MaterializeCase, RandomFloatsAreIntegers) {
    Puzzle p = parseToy();
    DataSpec& spec = *p.cases[0].data[0];
    spec.kind = DataSpec::Kind::Random;
    spec.seed = 7;
    spec.min = -9;
    spec.max = 9;
    auto d = materializeCase(p, 0);
    ASSERT_TRUE(d.ok());
    for (double x : values(d->initial[0])) {
        EXPECT_EQ(x, std::trunc(x));
        EXPECT_GE(x, -9);
        EXPECT_LE(x, 9);
    }
    // The expected output follows the generated input.
    for (size_t i = 0; i < 6; ++i)
        EXPECT_EQ(d->expected[2]->get(i), d->initial[0].get(i) + 10);
}

TEST(MaterializeCase, UnknownCaseIndexIsAnError) {
    Puzzle p = parseToy();
    auto d = materializeCase(p, 2);
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.error().kind, ErrorKind::Usage);
    EXPECT_NE(d.error().message.find("case 3 does not exist"), std::string::npos)
        << d.error().message;
}

// ---- loadPuzzleSet ----

class TempTree : public ::testing::Test {
  protected:
    void SetUp() override {
        m_root =
            fs::path("/tmp") / ("vkp_loader_test_" + std::to_string(::getpid()) + "_" +
                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_root);
        fs::create_directories(m_root);
    }
    void TearDown() override { fs::remove_all(m_root); }
    void write(const std::string& rel, const std::string& text) {
        fs::create_directories((m_root / rel).parent_path());
        std::ofstream(m_root / rel) << text;
    }
    void writePuzzle(const std::string& folder, const std::string& toml) {
        write(folder + "/puzzle.toml", toml);
        write(folder + "/starter.comp", "#version 450\nvoid main() {}\n");
        write(folder + "/solution.comp", "#version 450\nvoid main() {}\n");
    }
    fs::path m_root;
};

TEST_F(TempTree, OneBadPuzzleDoesNotHideTheGoodOne) {
    writePuzzle("01-good", kToyToml);
    writePuzzle("02-bad", "title = \"Bad\"\ntrack = [\n");
    write("notes/readme.txt", "not a puzzle"); // folders without puzzle.toml are ignored
    PuzzleSet set = loadPuzzleSet(m_root.string());
    EXPECT_EQ(set.root, m_root.string());
    ASSERT_EQ(set.puzzles.size(), 1u);
    EXPECT_EQ(set.puzzles[0].folder, "01-good");
    EXPECT_EQ(set.puzzles[0].slug, "good");
    ASSERT_EQ(set.errors.size(), 1u);
    EXPECT_EQ(set.errors[0].kind, ErrorKind::PuzzleFile);
    EXPECT_EQ(set.errors[0].where.file, (m_root / "02-bad" / "puzzle.toml").string());
    EXPECT_GT(set.errors[0].where.line, 0);
    EXPECT_NE(set.errors[0].str().find("02-bad"), std::string::npos);
}

TEST_F(TempTree, FindByFolderSlugAndNumber) {
    writePuzzle("01-good", kToyToml);
    writePuzzle("03-other", kToyToml);
    PuzzleSet set = loadPuzzleSet(m_root.string());
    ASSERT_TRUE(set.errors.empty()) << set.errors[0].str();
    ASSERT_EQ(set.puzzles.size(), 2u);
    for (const char* name : {"01-good", "good", "1", "01"}) {
        auto p = set.find(name);
        ASSERT_TRUE(p.ok()) << name;
        EXPECT_EQ((*p)->folder, "01-good") << name;
    }
    auto o = set.find("3");
    ASSERT_TRUE(o.ok());
    EXPECT_EQ((*o)->slug, "other");
    for (const char* name : {"2", "nope", "", "good2"}) {
        auto missing = set.find(name);
        ASSERT_FALSE(missing.ok()) << name;
        EXPECT_EQ(missing.error().kind, ErrorKind::NotFound);
        EXPECT_NE(missing.error().message.find("no puzzle named '" + std::string(name) + "'"),
                  std::string::npos);
    }
    auto close = set.find("goo");
    ASSERT_FALSE(close.ok());
    EXPECT_NE(close.error().message.find("did you mean: good"), std::string::npos)
        << close.error().message;
}

TEST_F(TempTree, TracksAreListedInTheOrderTheyAreTaken) {
    // Alphabetically "performance" would come before "scan"; a learner takes it after.
    auto withTrack = [](const std::string& track, int order) {
        std::string toml = kToyToml;
        toml.replace(toml.find("classic"), 7, track);
        toml.replace(toml.find("order = 7"), 9, "order = " + std::to_string(order));
        return toml;
    };
    writePuzzle("01-zeta", withTrack("zeta", 1));
    writePuzzle("02-perf", withTrack("performance", 1));
    writePuzzle("03-algo", withTrack("algorithms", 1));
    writePuzzle("04-scan-b", withTrack("scan", 2));
    writePuzzle("05-scan-a", withTrack("scan", 1));
    writePuzzle("06-alpha", withTrack("alpha", 1));
    writePuzzle("07-basic", withTrack("classic", 1));
    PuzzleSet set = loadPuzzleSet(m_root.string());
    ASSERT_TRUE(set.errors.empty()) << set.errors[0].str();
    std::vector<std::string> folders;
    for (const Puzzle& p : set.puzzles)
        folders.push_back(p.folder);
    EXPECT_EQ(folders, (std::vector<std::string>{"07-basic", "05-scan-a", "04-scan-b", "02-perf",
                                                 "03-algo", "06-alpha", "01-zeta"}));
    EXPECT_TRUE(trackBefore("scan", "performance"));
    EXPECT_FALSE(trackBefore("performance", "scan"));
    EXPECT_FALSE(trackBefore("scan", "scan"));
}

TEST_F(TempTree, NumberZeroDoesNotNameAnUnnumberedFolder) {
    // BUG (src/puzzle/puzzle_set.cpp, PuzzleSet::find): a folder without an "NN-" prefix gets
    // number 0, and find("0") compares p.number == stoi("0"), so "0" (or "00") silently selects
    // the first unnumbered puzzle instead of reporting NotFound. Numbers start at 1.
    writePuzzle("sandbox", kToyToml);
    PuzzleSet set = loadPuzzleSet(m_root.string());
    ASSERT_EQ(set.puzzles.size(), 1u);
    ASSERT_TRUE(set.find("sandbox").ok());
    EXPECT_FALSE(set.find("0").ok());
}

TEST_F(TempTree, MissingKernelFileIsAnError) {
    write("04-nokernel/puzzle.toml", kToyToml);
    write("04-nokernel/starter.comp", "#version 450\nvoid main() {}\n");
    PuzzleSet set = loadPuzzleSet(m_root.string());
    EXPECT_TRUE(set.puzzles.empty());
    ASSERT_EQ(set.errors.size(), 1u);
    EXPECT_NE(set.errors[0].message.find("'solution.comp' is missing"), std::string::npos)
        << set.errors[0].message;
    EXPECT_EQ(set.errors[0].where.file, (m_root / "04-nokernel" / "puzzle.toml").string());
}

// A folder that holds no puzzle, or none at all, is the user's mistake about the whole folder
// (a Usage error: no puzzle of it is "skipped").
TEST_F(TempTree, EmptyOrMissingRootIsAUsageError) {
    PuzzleSet empty = loadPuzzleSet(m_root.string());
    ASSERT_EQ(empty.errors.size(), 1u);
    EXPECT_EQ(empty.errors[0].kind, ErrorKind::Usage);
    EXPECT_NE(empty.errors[0].message.find("no puzzle folders"), std::string::npos);
    PuzzleSet missing = loadPuzzleSet((m_root / "absent").string());
    ASSERT_EQ(missing.errors.size(), 1u);
    EXPECT_EQ(missing.errors[0].kind, ErrorKind::Usage);
    EXPECT_EQ(missing.errors[0].message, "no such folder");
    EXPECT_FALSE(readTextFile((m_root / "absent.txt").string()).ok());
    EXPECT_EQ(readTextFile((m_root / "absent.txt").string()).error().kind, ErrorKind::Io);
}

TEST(RealPuzzles, AllLoadAndEveryCaseMaterializes) {
    PuzzleSet set = loadPuzzleSet(VKPUZZLES_SOURCE_DIR "/puzzles");
    for (const Error& e : set.errors)
        ADD_FAILURE() << e.str();
    size_t classic = std::count_if(set.puzzles.begin(), set.puzzles.end(),
                                   [](const Puzzle& p) { return p.track == "classic"; });
    ASSERT_EQ(classic, 14u);
    std::map<std::string, int> lastOrder; // per track: sorted by order, no gaps, classic first
    for (size_t i = 0; i < set.puzzles.size(); ++i) {
        const Puzzle& p = set.puzzles[i];
        SCOPED_TRACE(p.folder);
        if (i < classic) {
            EXPECT_EQ(p.track, "classic");
        }
        EXPECT_EQ(p.order, ++lastOrder[p.track]);
        if (p.track == "classic") {
            EXPECT_EQ(p.number, p.order); // "1" names the puzzle of order 1
        }
        EXPECT_GE(p.cases.size(), 3u);
        EXPECT_GE(p.hints.size(), 2u);
        EXPECT_FALSE(p.statement.empty());
        // A case whose outputs are all zeros is passed by a kernel that writes nothing, so it
        // cannot stand alone; one is allowed where it is the point (compact keeping nothing).
        size_t zeroCases = 0;
        for (size_t c = 0; c < p.cases.size(); ++c) {
            auto d = materializeCase(p, c);
            ASSERT_TRUE(d.ok()) << d.error().str();
            bool anyOutput = false, allZero = true;
            for (const auto& e : d->expected) {
                if (!e) continue;
                anyOutput = true;
                allZero &= std::all_of(e->words.begin(), e->words.end(),
                                       [](uint32_t w) { return w == 0; });
            }
            EXPECT_TRUE(anyOutput) << "case " << c + 1;
            zeroCases += anyOutput && allZero;
        }
        EXPECT_LE(zeroCases, 1u) << "cases expecting only zeros";
    }
}

} // namespace
} // namespace vkp

// ---- Issue 19: a downloaded puzzle pack is read defensively ----

namespace vkp {
namespace {

TEST_F(TempTree, SymbolicLinkLoopInAPackIsAnErrorNotACrash) {
    writePuzzle("01-good", kToyToml);
    fs::create_directory_symlink("03-self", m_root / "03-self"); // ln -s 03-self PACK/03-self
    fs::create_directory_symlink("05-b", m_root / "04-a");       // a loop of two
    fs::create_directory_symlink("04-a", m_root / "05-b");
    fs::create_directory_symlink("gone", m_root / "06-dangling"); // not a loop: not a puzzle
    PuzzleSet set = loadPuzzleSet(m_root.string());
    ASSERT_EQ(set.puzzles.size(), 1u);
    EXPECT_EQ(set.puzzles[0].folder, "01-good");
    ASSERT_EQ(set.errors.size(), 3u);
    for (const Error& e : set.errors)
        EXPECT_NE(e.message.find("cannot open this folder"), std::string::npos) << e.str();
    EXPECT_EQ(set.errors[0].where.file, (m_root / "03-self").string());
}

TEST_F(TempTree, UnreadablePuzzleFolderIsAnError) {
    writePuzzle("01-good", kToyToml);
    writePuzzle("02-locked", kToyToml);
    fs::permissions(m_root / "02-locked", fs::perms::none);
    PuzzleSet set = loadPuzzleSet(m_root.string());
    fs::permissions(m_root / "02-locked", fs::perms::owner_all); // so that TearDown can remove it
    if (::geteuid() == 0)
        GTEST_SKIP() << "root reads a chmod 000 folder; the case needs another user";
    ASSERT_EQ(set.puzzles.size(), 1u);
    ASSERT_EQ(set.errors.size(), 1u);
    EXPECT_NE(set.errors[0].str().find("02-locked"), std::string::npos);
}

TEST_F(TempTree, KernelFilesMustBePlainFilesInsideThePuzzleFolder) {
    writePuzzle("01-fifo", kToyToml);
    fs::remove(m_root / "01-fifo" / "solution.comp");
    ASSERT_EQ(::mkfifo((m_root / "01-fifo" / "solution.comp").c_str(), 0644), 0);
    writePuzzle("02-dev", kToyToml);
    fs::remove(m_root / "02-dev" / "solution.comp");
    fs::create_directory(m_root / "02-dev" /
                         "solution.comp"); // a folder where the kernel should be
    writePuzzle("03-escape", kToyToml);
    fs::remove(m_root / "03-escape" / "solution.comp");
    fs::create_symlink("/etc/passwd",
                       m_root / "03-escape" / "solution.comp"); // a link out of the pack
    writePuzzle("04-zero", kToyToml);
    fs::remove(m_root / "04-zero" / "starter.comp");
    fs::create_symlink("/dev/zero", m_root / "04-zero" / "starter.comp");
    PuzzleSet set = loadPuzzleSet(m_root.string());
    EXPECT_TRUE(set.puzzles.empty());
    ASSERT_EQ(set.errors.size(), 4u);
    EXPECT_NE(set.errors[0].message.find("'solution.comp' is not a plain file"), std::string::npos)
        << set.errors[0].str();
    EXPECT_NE(set.errors[1].message.find("'solution.comp' is not a plain file"), std::string::npos)
        << set.errors[1].str();
    EXPECT_NE(set.errors[2].message.find(
                  "'solution' names \"solution.comp\", which is outside the puzzle's folder"),
              std::string::npos)
        << set.errors[2].str();
    EXPECT_NE(set.errors[3].message.find("'starter' names \"starter.comp\", which is outside"),
              std::string::npos)
        << set.errors[3].str();
    for (const Error& e : set.errors)
        EXPECT_EQ(e.where.file.rfind(m_root.string(), 0), 0u) << e.str();
}

TEST_F(TempTree, DuplicateSlugsNumbersAndOrdersAreWarnedAbout) {
    writePuzzle("03-alpha", kToyToml);
    writePuzzle("03-beta", kToyToml);  // same number, same track and order as 03-alpha
    writePuzzle("07-alpha", kToyToml); // same slug as 03-alpha
    PuzzleSet set = loadPuzzleSet(m_root.string());
    ASSERT_EQ(set.puzzles.size(), 3u);
    EXPECT_TRUE(set.errors.empty());
    std::string all;
    for (const Error& w : set.warnings)
        all += w.str() + "\n";
    EXPECT_NE(all.find("the folders 03-alpha and 07-alpha both have the slug 'alpha'; 'alpha' "
                       "names 03-alpha only"),
              std::string::npos)
        << all;
    EXPECT_NE(
        all.find(
            "the folders 03-alpha and 03-beta both have the number 3; '3' names 03-alpha only"),
        std::string::npos)
        << all;
    EXPECT_NE(all.find("the folders 03-alpha and 03-beta both have order = "), std::string::npos)
        << all;
    EXPECT_EQ((*set.find("alpha"))->folder, "03-alpha")
        << "the warning says which one the name picks";
}

TEST_F(TempTree, AHugeFolderNumberIsAName) {
    writePuzzle("99999999999999999999-big", kToyToml); // std::stoi threw out_of_range here
    PuzzleSet set = loadPuzzleSet(m_root.string());
    ASSERT_EQ(set.puzzles.size(), 1u) << (set.errors.empty() ? "" : set.errors[0].str());
    EXPECT_EQ(set.puzzles[0].number, 0);
    EXPECT_EQ(set.puzzles[0].slug, "99999999999999999999-big");
}

TEST_F(TempTree, OversizedPuzzleTomlIsRefusedWithItsLimit) {
    writePuzzle("01-huge",
                std::string(kToyToml) + "\n#" + std::string(kPuzzleFileLimit.bytes, 'x') + "\n");
    PuzzleSet set = loadPuzzleSet(m_root.string());
    ASSERT_EQ(set.errors.size(), 1u);
    EXPECT_NE(set.errors[0].message.find("a puzzle file may be at most 1 MiB"), std::string::npos)
        << set.errors[0].str();
}

// ---- packs beside the built-in puzzles (--puzzles) ----

TEST_F(TempTree, APackIsAddedBesideTheBuiltInPuzzlesAndListedAfterThem) {
    writePuzzle("builtin/01-alpha", kToyToml);
    writePuzzle("course/pack/01-alpha", kToyToml); // the same folder name in a pack
    writePuzzle("course/pack/02-beta", kToyToml);
    PuzzleSet set =
        loadPuzzleSet((m_root / "builtin").string(), {(m_root / "course/pack/").string()});
    ASSERT_EQ(set.puzzles.size(), 3u) << (set.errors.empty() ? "" : set.errors[0].str());
    for (const Error& w :
         set.warnings) // the toy puzzles share a track order within the pack, which is warned about
        EXPECT_EQ(w.message.find("slug 'alpha'"), std::string::npos)
            << "a pack's 01-alpha beside a built-in 01-alpha is not a duplicate: " << w.str();
    ASSERT_EQ(set.packs.size(), 1u);
    EXPECT_EQ(set.packs[0].name, "pack");
    EXPECT_EQ(set.packs[0].root, (m_root / "course/pack").string())
        << "absolute, without the trailing slash";
    EXPECT_EQ(set.puzzles[0].pack, "");
    EXPECT_EQ(set.puzzles[0].key(), "01-alpha");
    EXPECT_EQ(set.puzzles[1].pack, "pack");
    EXPECT_EQ(set.puzzles[1].key(), "pack/01-alpha")
        << "a pack's puzzle never shares a draft with a built-in one";
    EXPECT_EQ(set.puzzles[2].packRoot, set.packs[0].root);
    // Names: the pack first, PACK/NAME for one pack, the built-in ones when no pack has the name.
    EXPECT_EQ((*set.find("alpha"))->pack, "pack");
    EXPECT_EQ((*set.find("1"))->pack, "pack");
    EXPECT_EQ((*set.find("pack/01-alpha"))->key(), "pack/01-alpha");
    EXPECT_EQ((*set.find("pack/2"))->slug, "beta");
    EXPECT_FALSE(set.find("other/alpha")) << "no pack is called other";
    // "All of them" means the pack's when a pack was given.
    ASSERT_EQ(set.inScope().size(), 2u);
    EXPECT_EQ(set.inScope()[0]->key(), "pack/01-alpha");
    PuzzleSet builtinOnly = loadPuzzleSet((m_root / "builtin").string());
    ASSERT_EQ(builtinOnly.inScope().size(), 1u);
    EXPECT_EQ((*builtinOnly.find("alpha"))->pack, "");
}

TEST_F(TempTree, TheBuiltInFolderGivenAsAPackAndAPackGivenTwiceLoadOnce) {
    writePuzzle("builtin/01-alpha", kToyToml);
    writePuzzle("a/pack/01-beta", kToyToml);
    writePuzzle("b/pack/01-gamma", kToyToml);
    std::string builtin = (m_root / "builtin").string();
    PuzzleSet set =
        loadPuzzleSet(builtin, {builtin + "/", (m_root / "a/pack").string(),
                                (m_root / "a/../a/pack").string(), (m_root / "b/pack").string()});
    EXPECT_TRUE(set.errors.empty());
    ASSERT_EQ(set.puzzles.size(), 3u);
    ASSERT_EQ(set.packs.size(), 2u);
    EXPECT_EQ(set.packs[1].name, "pack-2") << "two packs in folders of one name are told apart";
    EXPECT_EQ(set.puzzles[2].key(), "pack-2/01-gamma");
    ASSERT_EQ(set.warnings.size(), 1u);
    EXPECT_NE(
        set.warnings[0].message.find(
            "another pack is also called pack; this one's drafts and progress are kept as pack-2"),
        std::string::npos)
        << set.warnings[0].str();
}

TEST_F(TempTree, AMissingPackIsAnErrorNamingItsFolder) {
    writePuzzle("builtin/01-alpha", kToyToml);
    PuzzleSet set = loadPuzzleSet((m_root / "builtin").string(), {(m_root / "absent").string()});
    ASSERT_EQ(set.errors.size(), 1u);
    EXPECT_EQ(set.errors[0].where.file, (m_root / "absent").string());
    EXPECT_TRUE(set.inScope().empty())
        << "the pack given has no puzzles, so a command about all of them has none";
}

TEST_F(TempTree, SuggestedCommandsReachAPacksPuzzleFromAShell) {
    writePuzzle("builtin/01-alpha", kToyToml);
    writePuzzle("my course/it's/01-beta", kToyToml);
    PuzzleSet set =
        loadPuzzleSet((m_root / "builtin").string(), {(m_root / "my course/it's").string()});
    ASSERT_EQ(set.puzzles.size(), 2u);
    EXPECT_EQ(set.puzzles[0].command("show"), "vkpuzzles show alpha");
    EXPECT_EQ(set.puzzles[1].command("run", "--solution"),
              "vkpuzzles --puzzles '" + (m_root / "my course/it'\\''s").string() +
                  "' run beta --solution");
    EXPECT_EQ(shellWord("/tmp/plain-name_1.comp"), "/tmp/plain-name_1.comp");
    EXPECT_EQ(shellWord(""), "''");
}

TEST_F(TempTree, TheFilesStampChangesWhenAFileOfThePuzzleIsSaved) {
    writePuzzle("01-alpha", kToyToml);
    std::string dir = (m_root / "01-alpha").string();
    uint64_t before = puzzleFilesStamp(dir);
    EXPECT_EQ(puzzleFilesStamp(dir), before) << "nothing changed";
    write("01-alpha/puzzle.toml", std::string(kToyToml) + "\n# an author's edit\n"); // another size
    uint64_t edited = puzzleFilesStamp(dir);
    EXPECT_NE(edited, before);
    write("01-alpha/walkthrough.toml", "");
    EXPECT_NE(puzzleFilesStamp(dir), edited) << "a new file counts too";
}

} // namespace
} // namespace vkp
