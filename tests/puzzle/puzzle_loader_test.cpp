// parsePuzzle on valid text and materializeCase. Rejected files are covered in
// puzzle_loader_errors_test.cpp, loadPuzzleSet in puzzle_set_test.cpp.
#include <gtest/gtest.h>

#include <map>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "base/os.h"
#include "puzzle/puzzle_loader.h"
#include "puzzle/track_order.h"
#include "toy_puzzle.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

// kToyToml: tests/puzzle/toy_puzzle.h

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
    EXPECT_EQ(os::toPath(p.starterPath), fs::path("puzzles/07-foo") / "starter.comp");
    EXPECT_EQ(os::toPath(p.solutionPath), fs::path("puzzles/07-foo") / "solution.comp");
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
    EXPECT_EQ(os::toPath(p->starterPath), fs::path("/tmp/12-thing") / "s.comp");
    EXPECT_EQ(os::toPath(p->solutionPath), fs::path("/tmp/12-thing") / "sol/x.comp");
    EXPECT_DOUBLE_EQ(p->tolerance, 0.001);
}

TEST(PuzzleLoader, FolderWithoutNumberKeepsItsName) {
    auto p = parsePuzzle(kToyToml, "p.toml", "/tmp/sandbox");
    ASSERT_TRUE(p.ok()) << p.error().str();
    EXPECT_EQ(p->slug, "sandbox");
    EXPECT_EQ(p->number, 0);
    EXPECT_EQ(p->displayName(), "Toy");
}

// [lookback]: the status and ticket buffers by name, the flag's place and values, the words per
// tile as an expression of the case; the defaults are the statement's (flag in bits 30-31).
TEST(PuzzleLoader, ParsesTheLookbackTable) {
    const std::string flags = R"(
[[buffers]]
name = "flags"
binding = 7
type = "uint"
role = "scratch"
size = "4"
)";
    const std::string table = R"(
[lookback]
status = "STATUS"
flag_shift = 28
aggregate = 3
prefix = 5
words_per_tile = "SIZE / 2"
)";
    auto withStatus = [&](const std::string& name) {
        std::string t = table;
        t.replace(t.find("STATUS"), 6, name);
        return parsePuzzle(std::string(kToyToml) + flags + t, "puzzles/07-foo/puzzle.toml",
                           "puzzles/07-foo");
    };
    auto p = withStatus("tmp");
    ASSERT_FALSE(p.ok()) << "tmp holds int, not uint";
    EXPECT_NE(p.error().message.find("'tmp' holds int"), std::string::npos) << p.error().str();
    p = withStatus("flags");
    ASSERT_TRUE(p.ok()) << p.error().str();
    ASSERT_TRUE(p->lookback.has_value());
    EXPECT_EQ(p->buffers[p->lookback->status].name, "flags");
    EXPECT_FALSE(p->lookback->counter.has_value()) << "no counter: tiles are status indices";
    EXPECT_EQ(p->lookback->flagShift, 28u);
    EXPECT_EQ(p->lookback->aggregate, 3u);
    EXPECT_EQ(p->lookback->prefix, 5u);
    std::map<std::string, uint64_t> names{{"SIZE", 6}};
    EXPECT_EQ(p->lookback->wordsPerTile.evaluate({0, 1, &names}), 3u);
    EXPECT_EQ(p->lookback->where.file, "puzzles/07-foo/puzzle.toml");
    EXPECT_GT(p->lookback->where.line, 60);
    EXPECT_FALSE(parseToy().lookback.has_value());
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

} // namespace
} // namespace vkp
