// Multi-pass puzzles: [[kernels]] / [[passes]] / [[pitfalls]] read from TOML, the errors a puzzle
// author can make, and a case unrolled into its dispatches (repetitions, push values, swaps).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "base/os.h"
#include "puzzle/passes.h"
#include "puzzle/puzzle_loader.h"

namespace vkp {
namespace {

const std::string kHead =
    "title = \"T\"\ntrack = \"scan\"\norder = 1\nstatement = \"s\"\nhints = [\"h\"]\n"
    "[[buffers]]\nname = \"src\"\nbinding = 0\ntype = \"uint\"\nrole = \"input\"\n"
    "[[buffers]]\nname = \"dst\"\nbinding = 1\ntype = \"uint\"\nrole = \"output\"\n"
    "[[buffers]]\nname = \"sums\"\nbinding = 2\ntype = \"uint\"\nrole = \"scratch\"\nsize = "
    "\"ceil_div(N, WG)\"\n";
const std::string kCase =
    "[[cases]]\nworkgroup_size = [4]\ninputs.src = { shape = [13], fill = \"iota\" }\n"
    "expected.dst = { op = \"inclusive_scan\", args = [\"src\"] }\n";
const std::string kStep =
    "[[kernels]]\nname = \"step\"\nbuffers = [\"src\", \"dst\"]\n"
    "[[passes]]\nkernel = \"step\"\nworkgroups = [\"ceil_div(N, WG)\"]\nrepeat = \"log2ceil(N)\"\n"
    "push = { offset = \"pow2(i)\" }\nswap = [\"src\", \"dst\"]\n";

Result<Puzzle> parse(const std::string& text) {
    return parsePuzzle(text, "p/puzzle.toml", "p");
}

TEST(PassesTest, ASingleKernelPuzzleHasOneKernelAndOneDispatchPerCase) {
    auto p = parse(kHead + "[[cases]]\nworkgroup_size = [4]\nworkgroups = [\"ceil_div(N, WG)\"]\n"
                           "inputs.src = { shape = [13], fill = \"iota\" }\nexpected.dst = { op = "
                           "\"inclusive_scan\", args = [\"src\"] }\n");
    ASSERT_TRUE(p.ok()) << p.error().str();
    ASSERT_EQ(p->kernels.size(), 1u);
    EXPECT_EQ(p->kernels[0].name, "kernel");
    EXPECT_EQ(p->kernels[0].buffers.size(), 3u);
    EXPECT_FALSE(p->multiPass());
    auto d = caseDispatches(*p, 0);
    ASSERT_TRUE(d.ok());
    ASSERT_EQ(d->size(), 1u);
    EXPECT_EQ((*d)[0].workgroups[0], 4u);
}

TEST(PassesTest, ARepeatedPassUnrollsWithItsPushValuesAndSwaps) {
    auto p = parse(kHead + kStep + kCase);
    ASSERT_TRUE(p.ok()) << p.error().str();
    ASSERT_TRUE(p->multiPass());
    EXPECT_EQ(os::toPath(p->kernels[0].starterPath),
              std::filesystem::path("p") / "starter" / "step.comp");
    EXPECT_EQ(p->kernels[0].buffers, (std::vector<size_t>{0, 1}));
    auto d = caseDispatches(*p, 0);
    ASSERT_TRUE(d.ok()) << d.error().str();
    ASSERT_EQ(d->size(), 4u); // log2ceil(13)
    for (uint32_t i = 0; i < 4; ++i) {
        EXPECT_EQ((*d)[i].repetition, i);
        EXPECT_EQ((*d)[i].workgroups[0], 4u); // ceil(13 / 4)
        ASSERT_EQ((*d)[i].push.size(), 1u);
        EXPECT_EQ((*d)[i].push[0].first, "offset");
        EXPECT_EQ((*d)[i].push[0].second, 1u << i);
        // src and dst trade places between repetitions: even steps read buffer 0, odd ones 1.
        EXPECT_EQ((*d)[i].bufferAt[0], i % 2 ? 1u : 0u);
        EXPECT_EQ((*d)[i].bufferAt[1], i % 2 ? 0u : 1u);
        EXPECT_EQ((*d)[i].bufferAt[2], 2u);
    }
    EXPECT_EQ((*d)[2].label(*p), "step (3 of 4)");
    // After the last step, dst's binding holds the memory that started as src.
    EXPECT_EQ(finalBufferAt(*p, *d)[1], 0u);
}

TEST(PassesTest, PassesRunInOrderAndABenchmarkMayAllowMoreWorkgroups) {
    auto p =
        parse(kHead +
              "[[kernels]]\nname = \"tiles\"\n[[kernels]]\nname = \"sums\"\nbuffers = [\"sums\"]\n"
              "[[passes]]\nkernel = \"tiles\"\nworkgroups = [\"ceil_div(N, WG)\"]\n"
              "[[passes]]\nkernel = \"sums\"\nworkgroups = [1]\n" +
              kCase);
    ASSERT_TRUE(p.ok()) << p.error().str();
    auto d = caseDispatches(*p, 0);
    ASSERT_TRUE(d.ok());
    ASSERT_EQ(d->size(), 2u);
    EXPECT_EQ((*d)[0].kernel, 0u);
    EXPECT_EQ((*d)[1].kernel, 1u);
    EXPECT_EQ((*d)[1].label(*p), "sums");
    TestCase big = p->cases[0];
    big.data[0]->shape = Shape{{1u << 20}};
    big.workgroupSize = {4, 1, 1};
    EXPECT_FALSE(caseDispatches(*p, big).ok()); // 262144 workgroups: over the portable limit
    EXPECT_TRUE(caseDispatches(*p, big, 1u << 31).ok());
}

// Two passes of one kernel told apart by their labels (bitonic-global's flip and half-cleaners).
TEST(PassesTest, ALabelNamesAPassesDispatchesInsteadOfItsKernel) {
    auto p = parse(kHead +
                   "[[kernels]]\nname = \"step\"\n"
                   "[[passes]]\nkernel = \"step\"\nlabel = \"step: flip\"\nworkgroups = [1]\n"
                   "[[passes]]\nkernel = \"step\"\nworkgroups = [1]\nrepeat = 2\n" +
                   kCase);
    ASSERT_TRUE(p.ok()) << p.error().str();
    auto d = caseDispatches(*p, 0);
    ASSERT_TRUE(d.ok());
    ASSERT_EQ(d->size(), 3u);
    EXPECT_EQ((*d)[0].label(*p), "step: flip");
    EXPECT_EQ((*d)[1].label(*p), "step (1 of 2)") << "no label: the kernel's name";
    EXPECT_EQ(passLabel(*p, 0, 0), "step: flip");
}

// [laps]: the whole list of passes runs again and again (a radix sort's 8 digits), with the lap
// index in the passes' expressions and a swap between laps, on top of any swap a pass makes
// between its own repetitions.
const std::string kLaps = "[[kernels]]\nname = \"count\"\nbuffers = [\"src\", \"sums\"]\n"
                          "[[kernels]]\nname = \"move\"\nbuffers = [\"src\", \"dst\", \"sums\"]\n"
                          "[[passes]]\nkernel = \"count\"\nworkgroups = [\"ceil_div(N, WG)\"]\n"
                          "push = { shift = \"4 * lap\" }\n"
                          "[[passes]]\nkernel = \"move\"\nworkgroups = [\"lap + 1\"]\nrepeat = 2\n"
                          "push = { shift = \"4 * lap + i\" }\n";

void expectThreeLaps(const Puzzle& p) {
    auto d = caseDispatches(p, 0);
    ASSERT_TRUE(d.ok()) << d.error().str();
    ASSERT_EQ(d->size(), 9u); // 3 laps of count + move twice
    for (uint32_t r = 0; r < 3; ++r) {
        const CaseDispatch& count = (*d)[3 * r];
        EXPECT_EQ(count.kernel, 0u);
        EXPECT_EQ(count.lap, r);
        EXPECT_EQ(count.laps, 3u);
        EXPECT_EQ(count.push.at(0).second, 4 * r);
        for (uint32_t i = 0; i < 2; ++i) {
            const CaseDispatch& move = (*d)[3 * r + 1 + i];
            EXPECT_EQ(move.kernel, 1u);
            EXPECT_EQ(move.repetition, i);
            EXPECT_EQ(move.push.at(0).second, 4 * r + i);
            EXPECT_EQ(move.workgroups[0], r + 1);
        }
        // Swapped once per lap: even laps read src where it started, odd ones dst's memory.
        for (size_t k = 3 * r; k < 3 * r + 3; ++k) {
            EXPECT_EQ((*d)[k].bufferAt[0], r % 2 ? 1u : 0u) << k;
            EXPECT_EQ((*d)[k].bufferAt[1], r % 2 ? 0u : 1u) << k;
            EXPECT_EQ((*d)[k].bufferAt[2], 2u) << k;
        }
    }
    EXPECT_EQ((*d)[3].label(p), "count (lap 2 of 3)");
    EXPECT_EQ((*d)[5].label(p), "move (2 of 2, lap 2 of 3)");
    // No swap after the last lap: dst's binding holds what the third lap wrote there.
    EXPECT_EQ(finalBufferAt(p, *d)[1], 1u);
    EXPECT_EQ(swappedBuffers(p), (std::vector<bool>{true, true, false}));
}

TEST(PassesTest, LapsRunThePassesAgainWithTheLapIndexAndSwapBetweenLaps) {
    auto p = parse(kHead + kLaps + "[laps]\nrepeat = \"3\"\nswap = [\"src\", \"dst\"]\n" + kCase);
    ASSERT_TRUE(p.ok()) << p.error().str();
    expectThreeLaps(*p);
}

// Files written before laps were named so: [rounds] and `round` mean [laps] and `lap`.
TEST(PassesTest, RoundsAndRoundAreTheOldNamesOfLapsAndLap) {
    std::string old = kLaps;
    for (size_t at; (at = old.find("lap")) != std::string::npos;)
        old.replace(at, 3, "round");
    auto p = parse(kHead + old + "[rounds]\nrepeat = \"3\"\nswap = [\"src\", \"dst\"]\n" + kCase);
    ASSERT_TRUE(p.ok()) << p.error().str();
    expectThreeLaps(*p);
    auto bad = parse(kHead + old + "[rounds]\nrepeat = \"N - N\"\n" + kCase);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("[rounds] repeat (\"N - N\") comes to 0"), std::string::npos)
        << bad.error().message; // named as the file names it
}

TEST(PassesTest, APassSwapAndALapSwapCompose) {
    // Each lap: step twice with its own swap (src and dst trade, then trade back), then the
    // laps' swap of the same two: every lap starts from the other memory.
    auto p = parse(kHead + kStep + "[laps]\nrepeat = 2\nswap = [\"src\", \"dst\"]\n" +
                   "[[cases]]\nworkgroup_size = [4]\ninputs.src = { shape = [4], fill = "
                   "\"iota\" }\nexpected.dst = { op = \"inclusive_scan\", args = [\"src\"] }\n");
    ASSERT_TRUE(p.ok()) << p.error().str();
    auto d = caseDispatches(*p, 0);
    ASSERT_TRUE(d.ok()) << d.error().str();
    ASSERT_EQ(d->size(), 4u); // log2ceil(4) = 2 steps, 2 laps
    std::vector<size_t> srcAt;
    for (const CaseDispatch& x : *d)
        srcAt.push_back(x.bufferAt[0]);
    // Lap 1: 0, 1 (the pass's swap); after it: the pass swaps nothing after its last
    // repetition, the laps' swap does: src's binding gets memory 0 back, then 1.
    EXPECT_EQ(srcAt, (std::vector<size_t>{0, 1, 0, 1}));
}

struct BadPasses {
    const char* name;
    std::string toml;
    const char* message;
};

class BadPassesTest : public ::testing::TestWithParam<BadPasses> {};

TEST_P(BadPassesTest, IsRejectedWithAMessage) {
    auto p = parse(GetParam().toml);
    ASSERT_FALSE(p.ok()) << GetParam().name;
    EXPECT_NE(p.error().message.find(GetParam().message), std::string::npos) << p.error().str();
    EXPECT_EQ(p.error().where.file, "p/puzzle.toml");
    EXPECT_GT(p.error().where.line, 0) << p.error().str();
}

const std::string kPassTail = "[[passes]]\nkernel = \"step\"\nworkgroups = [1]\n";

INSTANTIATE_TEST_SUITE_P(
    Rows, BadPassesTest,
    ::testing::Values(
        BadPasses{"kernels without passes", kHead + "[[kernels]]\nname = \"step\"\n" + kCase,
                  "needs [[passes]]"},
        BadPasses{"passes without kernels", kHead + kPassTail + kCase,
                  "declare them under [[kernels]]"},
        BadPasses{
            "unknown kernel",
            kHead +
                "[[kernels]]\nname = \"step\"\n[[passes]]\nkernel = \"stpe\"\nworkgroups = [1]\n" +
                kCase,
            "no kernel named 'stpe'"},
        BadPasses{"kernel name not a word",
                  kHead + "[[kernels]]\nname = \"my step\"\n" + kPassTail + kCase,
                  "must be a word"},
        BadPasses{"empty label",
                  kHead +
                      "[[kernels]]\nname = \"step\"\n[[passes]]\nkernel = \"step\"\n"
                      "label = \" \"\nworkgroups = [1]\n" +
                      kCase,
                  "'label' names the pass's dispatches: it needs a word"},
        BadPasses{"unused kernel",
                  kHead + "[[kernels]]\nname = \"step\"\n[[kernels]]\nname = \"other\"\n" +
                      kPassTail + kCase,
                  "'other' is not run by any pass"},
        BadPasses{"unknown buffer",
                  kHead + "[[kernels]]\nname = \"step\"\nbuffers = [\"srcc\"]\n" + kPassTail +
                      kCase,
                  "no buffer named 'srcc'"},
        BadPasses{"unknown name",
                  kHead +
                      "[[kernels]]\nname = \"step\"\n[[passes]]\nkernel = \"step\"\nworkgroups = "
                      "[\"j + 1\"]\n" +
                      kCase,
                  "unknown name 'j'"},
        BadPasses{"unknown field",
                  kHead + "[[kernels]]\nname = \"step\"\n" + kPassTail + "repeats = 2\n" + kCase,
                  "unknown field 'repeats'"},
        BadPasses{"swap of one buffer",
                  kHead + "[[kernels]]\nname = \"step\"\n" + kPassTail + "swap = [\"src\"]\n" +
                      kCase,
                  "names two buffers"},
        BadPasses{"workgroups in a case",
                  kHead + "[[kernels]]\nname = \"step\"\n" + kPassTail +
                      "[[cases]]\nworkgroup_size = [4]\nworkgroups = [1]\n"
                      "inputs.src = { shape = [13], fill = \"iota\" }\nexpected.dst = { op = "
                      "\"inclusive_scan\", args = [\"src\"] }\n",
                  "each pass says its workgroups"},
        BadPasses{"too many dispatches",
                  kHead + "[[kernels]]\nname = \"step\"\n" + kPassTail + "repeat = 1000\n" + kCase,
                  "this case would run 1000 dispatches: step 1000 times (\"1000\"); a case may run "
                  "at most 256"},
        BadPasses{"no dispatch",
                  kHead + "[[kernels]]\nname = \"step\"\n" + kPassTail + "repeat = \"N - N\"\n" +
                      kCase,
                  "this case would run no dispatch: step 0 times (\"N - N\"); a case must run at "
                  "least one"},
        BadPasses{"a repeat past 2^64",
                  kHead + "[[kernels]]\nname = \"step\"\n" + kPassTail +
                      "repeat = \"pow(2, 64) + 1\"\n" + kCase,
                  "a result past 2^64 - 1 in the expression of 'repeat' (\"pow(2, 64) + 1\"), "
                  "column 1"},
        BadPasses{"a push dividing by zero",
                  kHead + kStep.substr(0, kStep.find("push")) +
                      "push = { offset = \"i / (N - N)\" }\nswap = [\"src\", \"dst\"]\n" + kCase,
                  "division by zero in the expression of 'push offset' (\"i / (N - N)\"), column 3 "
                  "(the divisor is 0 in this case) in step (1 of 4)"},
        BadPasses{"a push below zero",
                  kHead + kStep.substr(0, kStep.find("push")) +
                      "push = { offset = \"i - 1\" }\nswap = [\"src\", \"dst\"]\n" + kCase,
                  "a subtraction below 0 in the expression of 'push offset' (\"i - 1\"), column 3"},
        BadPasses{"a push past 32 bits",
                  kHead + kStep.substr(0, kStep.find("push")) +
                      "push = { offset = \"pow2(32) + i\" }\nswap = [\"src\", \"dst\"]\n" + kCase,
                  "push constant 'offset' (\"pow2(32) + i\") comes to 4294967296 in step (1 of 4); "
                  "a push constant holds 0 to 4294967295"},
        BadPasses{"zero workgroups",
                  kHead +
                      "[[kernels]]\nname = \"step\"\n[[passes]]\nkernel = \"step\"\nworkgroups = "
                      "[\"N - N\"]\n" +
                      kCase,
                  "come to 0"},
        BadPasses{"swapped buffers of different sizes",
                  kHead + "[[kernels]]\nname = \"step\"\n" + kPassTail +
                      "swap = [\"src\", \"sums\"]\n" + kCase,
                  "have different sizes"},
        BadPasses{"laps in a single-kernel puzzle",
                  kHead + "[laps]\nrepeat = 2\n" +
                      "[[cases]]\nworkgroup_size = [4]\nworkgroups = [1]\n"
                      "inputs.src = { shape = [13], fill = \"iota\" }\nexpected.dst = { op = "
                      "\"inclusive_scan\", args = [\"src\"] }\n",
                  "[laps] repeats a multi-pass puzzle's [[passes]]: this puzzle has none"},
        BadPasses{"laps and rounds both",
                  kHead + kStep + "[laps]\nrepeat = 2\n[rounds]\nrepeat = 2\n" + kCase,
                  "[rounds] is the old name of [laps]: keep one of the two"},
        BadPasses{"laps without repeat",
                  kHead + kStep + "[laps]\nswap = [\"src\", \"dst\"]\n" + kCase,
                  "[laps] needs 'repeat'"},
        BadPasses{"laps with an unknown key",
                  kHead + kStep + "[laps]\nrepeat = 2\nrepaet = 3\n" + kCase,
                  "unknown key 'repaet'"},
        BadPasses{"laps repeat using the lap",
                  kHead + kStep + "[laps]\nrepeat = \"lap + 1\"\n" + kCase, "unknown name 'lap'"},
        BadPasses{"zero laps", kHead + kStep + "[laps]\nrepeat = \"N - N\"\n" + kCase,
                  "it must be 1 to 256"},
        BadPasses{"too many dispatches over the laps",
                  kHead + kStep + "[laps]\nrepeat = 100\n" + kCase,
                  "this case would run 400 dispatches: step 400 times over 100 laps (\"100\")"},
        BadPasses{"a lap counted from 1",
                  kHead + kStep.substr(0, kStep.find("workgroups")) +
                      "workgroups = [\"4 / (3 - lap)\"]\n[laps]\nrepeat = 4\n" + kCase,
                  "column 3 (the divisor is 0 in this case) in step (lap 4 of 4)"},
        BadPasses{"laps swapping buffers of different sizes",
                  kHead + kStep + "[laps]\nrepeat = 2\nswap = [\"src\", \"sums\"]\n" + kCase,
                  "have different sizes"},
        BadPasses{"pitfall on an input",
                  kHead + kStep + kCase +
                      "[[pitfalls]]\nbuffer = \"src\"\nop = \"inclusive_scan\"\nargs = "
                      "[\"src\"]\nmessage = \"m\"\n",
                  "not an output buffer"},
        BadPasses{"pitfall with an unknown op",
                  kHead + kStep + kCase +
                      "[[pitfalls]]\nbuffer = \"dst\"\nop = \"scan\"\nargs = [\"src\"]\nmessage = "
                      "\"m\"\n",
                  "unknown reference op 'scan'"}),
    [](const auto& info) {
        std::string s = info.param.name;
        for (char& c : s)
            if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
        return s;
    });

TEST(PassesTest, PitfallParamsAreExpressionsOfTheCase) {
    auto p = parse(kHead + kStep + kCase +
                   "[[pitfalls]]\nbuffer = \"dst\"\nop = \"block_inclusive_scan\"\nargs = "
                   "[\"src\"]\nblock = \"WG * 2\"\nmessage = \"per block\"\n");
    ASSERT_TRUE(p.ok()) << p.error().str();
    ASSERT_EQ(p->pitfalls.size(), 1u);
    EXPECT_EQ(p->pitfalls[0].message, "per block");
    auto names = caseNames(*p, p->cases[0], 0);
    EXPECT_EQ(p->pitfalls[0].params.at("block").evaluate(caseVars(*p, p->cases[0], names)), 8u);
}

} // namespace
} // namespace vkp
