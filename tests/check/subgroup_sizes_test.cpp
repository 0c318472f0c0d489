// Verdicts at every subgroup size (check/subgroup_sizes.h): kernels that assume a number of
// lanes fail with the sizes named, correct ones pass at 4, 8 and 16 lanes and at 32 and 64
// emulated, on lavapipe workers started with each width (the real vkpuzzles binary, as the app and
// the CLI start them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "base/text_file.h"
#include "check/hidden_cases.h"
#include "check/kernel_text.h"
#include "check/subgroup_sizes.h"
#include "gpu/device_runner.h"
#include "session/live_session.h"
#include "store/own_cases.h"
#include "support/engines.h"
#include "worker/worker_runner.h"

namespace vkp {
namespace {

std::string binary() {
    const char* bin = std::getenv("VKPUZZLES_BINARY");
    return bin ? bin : VKPUZZLES_BINARY_PATH;
}

RunnerFactory workerFactory() {
    return [](const ContextOptions& o) -> Result<std::unique_ptr<DeviceRunner>> {
        auto w = worker::WorkerRunner::start(binary(), o);
        if (!w) return w.error();
        return std::unique_ptr<DeviceRunner>(std::move(*w));
    };
}

// One worker per size for the whole test binary: lavapipe at 4, 8 and 16 lanes.
SubgroupSizeDevices& devices() {
    static SubgroupSizeDevices* d = new SubgroupSizeDevices(workerFactory());
    return *d;
}

std::vector<KernelSource> sourcesOf(const Puzzle& p, const std::string& file) {
    auto text = readTextFile(file);
    if (!text) throw std::runtime_error(text.error().message);
    return {{p.kernels.empty() ? "kernel" : p.kernels[0].name, *text, file}};
}

std::string dataKernel(const std::string& name) {
    return test::sourceDir() + "/tests/data/subgroup-sizes/" + name + ".comp";
}

// The check as front ends make it: on the device's own size (`own` lanes here, whichever the
// machine's native width), then at the other sizes.
CheckReport checkAtEverySize(const Puzzle& p, const std::vector<KernelSource>& sources,
                             uint32_t own, CheckOptions options = {}) {
    auto device = devices().device(own);
    if (!device) throw std::runtime_error(device.error().message);
    CheckReport r = checkProgram(test::engines().compiler, **device, p, sources, options);
    checkOtherSubgroupSizes(test::engines().compiler, devices(), p, sources, options, r);
    return r;
}

std::vector<uint32_t> lanesOf(const CheckReport& r) {
    std::vector<uint32_t> out;
    for (const SubgroupSizeRun& s : r.otherSizes)
        out.push_back(s.lanes);
    return out;
}

bool ownCasesPass(const CheckReport& r) {
    for (const CaseOutcome& c : r.cases)
        if (!c.pass) return false;
    return !r.cases.empty();
}

TEST(SubgroupSizesTest, EachSizeIsAWorkerWithThatManyLanes) {
    for (uint32_t lanes : kCpuSubgroupSizes) {
        auto d = devices().device(lanes);
        ASSERT_TRUE(d) << d.error().message;
        EXPECT_EQ((*d)->info().subgroupSize, lanes);
        EXPECT_EQ((*d)->info().type, DeviceTypeKind::Cpu);
    }
    DeviceInfo eight;
    eight.subgroupSize = 8;
    EXPECT_EQ(sizesBeside(eight), (std::vector<uint32_t>{4, 16, 32, 64}));
    DeviceInfo gpu;
    gpu.subgroupSize = 32;
    EXPECT_EQ(sizesBeside(gpu), (std::vector<uint32_t>{4, 8, 16, 64}));
    // An emulated size runs on a worker of its own with lavapipe's 16 lanes.
    for (uint32_t lanes : kEmulatedSubgroupSizes) {
        EXPECT_TRUE(emulatedSize(lanes));
        auto d = devices().device(lanes);
        ASSERT_TRUE(d) << d.error().message;
        EXPECT_EQ((*d)->info().subgroupSize, kEmulatingLanes);
        EXPECT_NE(*d, *devices().device(kEmulatingLanes)) << lanes;
    }
}

// Kernels that are right with lavapipe's 8 lanes only, in two ways: the number of lanes written
// as 8, and lanes and subgroups taken from the local id. On a device of 8 lanes every case
// passes, and the check still fails; on one of 16 the same sizes are named.
TEST(SubgroupSizesTest, AKernelRightWithEightLanesOnlyFailsWithTheSizesNamed) {
    const std::vector<std::pair<std::string, std::string>> kernels = {
        {"reduce-subgroup", "reduce-assumes-8-lanes"},
        {"scan-subgroup", "scan-lane-from-local-id"}};
    for (const auto& [slug, file] : kernels) {
        const Puzzle& p = test::puzzleNamed(slug);
        auto sources = sourcesOf(p, dataKernel(file));
        CheckReport r = checkAtEverySize(p, sources, 8);
        EXPECT_TRUE(ownCasesPass(r)) << file;
        EXPECT_FALSE(r.allPass()) << file;
        EXPECT_EQ(r.lanes, 8u);
        EXPECT_EQ(lanesOf(r), (std::vector<uint32_t>{4, 16, 32, 64})) << file;
        for (const SubgroupSizeRun& s : r.otherSizes) {
            EXPECT_FALSE(s.error) << file << ": " << s.error->message;
            EXPECT_FALSE(s.failures.empty()) << file << " with " << s.lanes << " lanes";
            EXPECT_EQ(s.casesRun, p.cases.size());
            ASSERT_FALSE(s.failures.empty());
            EXPECT_NE(s.failures[0].detail.find("expected"), std::string::npos)
                << s.failures[0].detail;
        }
        const std::string said = "right with 8 lanes, wrong with 4, 16, 32 and 64 (32 and 64 "
                                 "emulated): does the kernel assume a subgroup size?";
        EXPECT_EQ(subgroupSizeVerdict(p, r), said) << file;
        CheckReport at16 = checkAtEverySize(p, sources, 16);
        EXPECT_FALSE(ownCasesPass(at16)) << file;
        EXPECT_EQ(lanesOf(at16), (std::vector<uint32_t>{4, 8, 32, 64})) << file;
        EXPECT_EQ(subgroupSizeVerdict(p, at16), said) << file;
    }
}

// Kernels right with no size lavapipe runs natively: 32 lanes written in is right with 32 lanes
// only (emulated), a scan of the subgroups' totals in one step is right while there are no more
// subgroups than lanes (with 32 and 64 here), and a butterfly that stops at 32 lanes (a warp's)
// is wrong with 64 only, where lanes 32-63 never meet lanes 0-31 (AMD's wave64).
TEST(SubgroupSizesTest, SizesNoCpuRunsAreEmulatedAndNamed) {
    struct Row {
        const char* slug;
        const char* file;
        std::vector<uint32_t> wrong; // sizes beside the device's own 8 that fail
        const char* said;
    };
    const std::vector<Row> rows = {
        {"reduce-subgroup",
         "reduce-assumes-32-lanes",
         {4, 16, 64},
         "right with 32 lanes (32 emulated), wrong with 4, 8, 16 and 64 (64 emulated): does the "
         "kernel assume a subgroup size?"},
        {"scan-subgroup",
         "scan-one-level",
         {4, 16},
         "right with 32 and 64 lanes (32 and 64 emulated), wrong with 4, 8 and 16: does the "
         "kernel assume a subgroup size?"},
        {"reduce-subgroup",
         "reduce-butterfly-stops-at-32-lanes",
         {64},
         "right with 4, 8, 16 and 32 lanes (32 emulated), wrong with 64 (64 emulated): does the "
         "kernel assume a subgroup size?"},
    };
    for (const Row& row : rows) {
        const Puzzle& p = test::puzzleNamed(row.slug);
        CheckReport r = checkAtEverySize(p, sourcesOf(p, dataKernel(row.file)), 8);
        EXPECT_EQ(lanesOf(r), (std::vector<uint32_t>{4, 16, 32, 64})) << row.file;
        std::vector<uint32_t> wrong;
        for (const SubgroupSizeRun& s : r.otherSizes) {
            EXPECT_FALSE(s.error) << row.file << ": " << s.error->message;
            if (!s.pass()) wrong.push_back(s.lanes);
        }
        EXPECT_EQ(wrong, row.wrong) << row.file;
        EXPECT_EQ(subgroupSizeVerdict(p, r), row.said) << row.file;
    }
}

// A case whose workgroups are one subgroup at a size and at a smaller one runs at the smallest
// only, where the kernel reads nothing that tells sizes apart: the larger sizes carry its verdict,
// a failure included. scan-subgroup's cases 1, 2 and 8 have workgroups of 8, 5 and 3 threads,
// case 3 of 64.
TEST(SubgroupSizesTest, ACaseThatIsOneSubgroupRunsAtTheSmallestSizeAndTheLargerCarryIt) {
    const Puzzle& p = test::puzzleNamed("scan-subgroup");
    using Carried = std::vector<std::pair<size_t, uint32_t>>; // case (0-based), ran at
    auto carriedAt = [](const CheckReport& r, uint32_t lanes) {
        Carried out;
        for (const SubgroupSizeRun& s : r.otherSizes)
            if (s.lanes == lanes)
                for (const SubgroupSizeRun::Carried& c : s.carried)
                    out.push_back({c.index, c.lanes});
        std::sort(out.begin(), out.end());
        return out;
    };
    // Right at every size: what passed with the device's own 8 lanes is carried from there.
    CheckReport right = checkAtEverySize(p, sourcesOf(p, dataKernel("scan-without-size")), 8);
    EXPECT_TRUE(right.allPass());
    EXPECT_EQ(carriedAt(right, 4), (Carried{{7, 8}}));
    for (uint32_t lanes : {16u, 32u, 64u})
        EXPECT_EQ(carriedAt(right, lanes), (Carried{{0, 8}, {1, 8}, {7, 8}})) << lanes;
    for (const SubgroupSizeRun& s : right.otherSizes) {
        EXPECT_EQ(s.casesRun, p.cases.size()) << s.lanes;
        EXPECT_TRUE(s.pass()) << s.lanes;
    }
    // Wrong wherever a workgroup is one subgroup: the device's own failures are run again at the
    // smallest size beside that holds the workgroup, and carried from there with their detail.
    CheckReport wrong =
        checkAtEverySize(p, sourcesOf(p, dataKernel("scan-one-subgroup-exclusive")), 8);
    EXPECT_FALSE(wrong.allPass());
    EXPECT_EQ(carriedAt(wrong, 4), Carried{});
    EXPECT_EQ(carriedAt(wrong, 16), (Carried{{7, 4}}));
    for (uint32_t lanes : {32u, 64u})
        EXPECT_EQ(carriedAt(wrong, lanes), (Carried{{0, 16}, {1, 16}, {7, 4}})) << lanes;
    std::map<uint32_t, std::map<size_t, std::string>> failed; // lanes -> case -> detail
    for (const SubgroupSizeRun& s : wrong.otherSizes)
        for (const CaseFailure& f : s.failures)
            failed[s.lanes][f.index] = f.detail;
    ASSERT_TRUE(failed[4].count(7) && failed[16].count(0) && failed[16].count(1));
    for (uint32_t lanes : {32u, 64u}) {
        EXPECT_EQ(failed[lanes][7], failed[4][7]) << lanes;
        EXPECT_EQ(failed[lanes][0], failed[16][0]) << lanes;
        EXPECT_EQ(failed[lanes][1], failed[16][1]) << lanes;
    }
    EXPECT_NE(carriedText(wrong.otherSizes.back())
                  .find("case 8 as with 4 lanes, cases 1 and 2 as "
                        "with 16 (a workgroup is one subgroup"),
              std::string::npos)
        << carriedText(wrong.otherSizes.back());
    // The official solution reads gl_SubgroupSize: every size runs every case.
    auto solution = readKernelSources(p, true);
    ASSERT_TRUE(solution) << solution.error().message;
    CheckReport official = checkAtEverySize(p, *solution, 8);
    for (const SubgroupSizeRun& s : official.otherSizes) {
        EXPECT_TRUE(s.carried.empty()) << s.lanes;
        EXPECT_EQ(s.casesRun, p.cases.size()) << s.lanes;
    }
}

// Every size is judged as the device's own is: traced, an out-of-bounds write at 4 lanes fails
// the case as one, named with its cell, whatever values it left.
TEST(SubgroupSizesTest, EverySizeIsTracedAndItsFindingsNamed) {
    const Puzzle& p = test::puzzleNamed("reduce-subgroup");
    auto sources = sourcesOf(p, dataKernel("reduce-partial-for-8-lanes"));
    CheckOptions traced;
    traced.trace = true;
    CheckReport r = checkAtEverySize(p, sources, 8, traced);
    EXPECT_TRUE(ownCasesPass(r));
    ASSERT_EQ(lanesOf(r), (std::vector<uint32_t>{4, 16, 32, 64}));
    const SubgroupSizeRun& four = r.otherSizes[0];
    EXPECT_EQ(four.casesRun, p.cases.size());
    ASSERT_EQ(four.failures.size(), p.cases.size());
    for (const CaseFailure& f : four.failures)
        EXPECT_NE(f.detail.find("past the end of partial"), std::string::npos) << f.detail;
    for (size_t k = 1; k < r.otherSizes.size(); ++k)
        EXPECT_TRUE(r.otherSizes[k].pass()) << r.otherSizes[k].lanes;
    EXPECT_EQ(subgroupSizeVerdict(p, r),
              "right with 8, 16, 32 and 64 lanes (32 and 64 emulated), wrong with 4: does the "
              "kernel assume a subgroup size?");
}

// A case whose trace could not hold all the threads did is inconclusive: right or wrong is not
// known at that size, so the other sizes' passes do not turn it into "wrong with 8".
TEST(SubgroupSizesTest, AnInconclusiveCaseIsNotASizeTheKernelIsWrongWith) {
    const Puzzle& p = test::puzzleNamed("reduce-subgroup");
    CheckReport r;
    r.lanes = 8;
    CaseOutcome right, unsure;
    right.index = 0;
    right.pass = true;
    unsure.index = 1;
    unsure.pass = false;
    unsure.inconclusive = true;
    unsure.outputsMatch = true;
    r.cases = {right, unsure};
    for (uint32_t lanes : {4u, 16u}) {
        SubgroupSizeRun at;
        at.lanes = lanes;
        at.casesRun = 2;
        r.otherSizes.push_back(at);
    }
    EXPECT_EQ(subgroupSizeVerdict(p, r), "");

    // Wrong at another size, unknown at this one: only the sizes known are named.
    r.otherSizes[1].failures.push_back({1, "result[0]: expected 3, got 2"});
    EXPECT_EQ(subgroupSizeVerdict(p, r),
              "right with 4 lanes, wrong with 16: does the kernel assume a subgroup size?");
}

// A case that could not run at a size (the worker crashed on it twice) has no answer there: the
// size is named as not judged, never as one the kernel is wrong with; a wrong answer elsewhere is.
TEST(SubgroupSizesTest, ACaseThatCouldNotRunIsNotASizeTheKernelIsWrongWith) {
    const Puzzle& p = test::puzzleNamed("reduce-subgroup");
    CheckReport r;
    r.lanes = 8;
    CaseOutcome right;
    right.index = 0;
    right.pass = true;
    r.cases = {right};
    for (uint32_t lanes : {4u, 16u, 32u}) {
        SubgroupSizeRun at;
        at.lanes = lanes;
        at.casesRun = 1;
        r.otherSizes.push_back(at);
    }
    const std::string crash = "case 1 the worker process running the kernel crashed";
    r.otherSizes[1].failures.push_back({0, crash, true});
    EXPECT_EQ(subgroupSizeVerdict(p, r),
              "right with 4, 8 and 32 lanes (32 emulated); not judged with 16 lanes: " + crash);
    r.otherSizes[2].failures.push_back({0, "result[0]: expected 3, got 2"});
    EXPECT_EQ(subgroupSizeVerdict(p, r),
              "right with 4 and 8 lanes, wrong with 32 (32 emulated): does the kernel assume a "
              "subgroup size?; not judged with 16 lanes: " +
                  crash);
    // Several sizes that could not run are all named, with the first one's reason.
    r.otherSizes[2].failures = {
        {0, "case 1 the worker process running the kernel crashed at 32", true}};
    EXPECT_EQ(subgroupSizeVerdict(p, r),
              "right with 4 and 8 lanes; not judged with 16 and 32 lanes (32 emulated): " + crash);
}

TEST(SubgroupSizesTest, OfficialSolutionsPassAtEverySize) {
    for (const char* slug :
         {"reduce-subgroup", "scan-subgroup", "butterfly", "ballot-compact", "scan-decoupled"}) {
        const Puzzle& p = test::puzzleNamed(slug);
        auto sources = readKernelSources(p, true);
        ASSERT_TRUE(sources) << sources.error().message;
        CheckOptions traced; // no finding at any size either
        traced.trace = true;
        CheckReport r = checkAtEverySize(p, *sources, 4, traced);
        EXPECT_TRUE(r.allPass()) << slug << ": " << subgroupSizeVerdict(p, r);
        EXPECT_EQ(lanesOf(r), (std::vector<uint32_t>{8, 16, 32, 64})) << slug;
        for (const SubgroupSizeRun& s : r.otherSizes)
            EXPECT_TRUE(s.pass()) << slug << " with " << s.lanes << " lanes";
        EXPECT_EQ(subgroupSizeVerdict(p, r), "") << slug;
    }
}

// A kernel with no subgroup operation and no gl_Subgroup* built-in cannot depend on the size:
// nothing more runs.
TEST(SubgroupSizesTest, AKernelWithoutSubgroupsRunsAtItsDevicesSizeOnly) {
    const Puzzle& p = test::puzzleNamed("block-sum");
    auto sources = readKernelSources(p, true);
    ASSERT_TRUE(sources) << sources.error().message;
    CheckReport r = checkAtEverySize(p, *sources, 8);
    EXPECT_FALSE(r.usesSubgroups);
    EXPECT_FALSE(subgroupSizesApply(r));
    EXPECT_TRUE(r.otherSizes.empty());
    EXPECT_TRUE(r.allPass());
}

// One case asked for: one case at the other sizes too; a stop asked for before the first case
// leaves the sizes out (a newer edit made them useless).
TEST(SubgroupSizesTest, OnlyTheCasesOfTheCheckRunAndAStopLeavesTheSizesOut) {
    const Puzzle& p = test::puzzleNamed("reduce-subgroup");
    auto sources = sourcesOf(p, dataKernel("reduce-assumes-8-lanes"));
    CheckOptions one;
    one.onlyCase = 1;
    CheckReport r = checkAtEverySize(p, sources, 8, one);
    ASSERT_EQ(r.otherSizes.size(), 4u);
    for (const SubgroupSizeRun& s : r.otherSizes) {
        EXPECT_EQ(s.casesRun, 1u);
        ASSERT_EQ(s.failures.size(), 1u);
        EXPECT_EQ(s.failures[0].index, 1u);
    }
    auto device = devices().device(8);
    ASSERT_TRUE(device);
    CheckReport stopped = checkProgram(test::engines().compiler, **device, p, sources, {});
    CheckOptions stop;
    stop.stopRequested = [] { return true; };
    checkOtherSubgroupSizes(test::engines().compiler, devices(), p, sources, stop, stopped);
    EXPECT_TRUE(stopped.otherSizes.empty());
    EXPECT_TRUE(stopped.allPass()); // only the device's own verdict is left
}

// No CPU device with those lanes (here: a factory that fails, as on a machine without lavapipe):
// the sizes are reported as not checked, and the verdict is the device's own.
TEST(SubgroupSizesTest, SizesThatCannotRunAreNotCheckedRatherThanFailed) {
    auto opened = std::make_shared<int>(0);
    SubgroupSizeDevices none(
        [opened](const ContextOptions& o) -> Result<std::unique_ptr<DeviceRunner>> {
            ++*opened;
            return Error{ErrorKind::Device, "no Vulkan device with " +
                                                std::to_string(o.subgroupLanes) + " lanes here"};
        });
    const Puzzle& p = test::puzzleNamed("reduce-subgroup");
    auto sources = sourcesOf(p, dataKernel("reduce-assumes-8-lanes"));
    auto device = devices().device(8);
    ASSERT_TRUE(device);
    CheckReport r = checkProgram(test::engines().compiler, **device, p, sources, {});
    std::vector<size_t> seen;
    checkOtherSubgroupSizes(test::engines().compiler, none, p, sources, {}, r,
                            [&](const CheckReport& sofar, const SubgroupSizeRun& ended) {
                                seen.push_back(sofar.otherSizes.size());
                                EXPECT_TRUE(ended.error);
                            });
    ASSERT_EQ(r.otherSizes.size(), 4u);
    EXPECT_EQ(seen, (std::vector<size_t>{1, 2, 3, 4})); // told as each size ended
    for (const SubgroupSizeRun& s : r.otherSizes) {
        ASSERT_TRUE(s.error);
        EXPECT_NE(s.error->message.find("no CPU device with " + std::to_string(s.lanes) + " lanes"),
                  std::string::npos)
            << s.error->message;
        EXPECT_FALSE(s.pass());
    }
    EXPECT_TRUE(r.allPass());
    EXPECT_EQ(subgroupSizeVerdict(p, r), "");
    // Asked again: the failure is kept, not retried at every check.
    EXPECT_EQ(*opened, 4);
    auto again = none.device(4);
    ASSERT_FALSE(again);
    EXPECT_EQ(*opened, 4);
}

// A hidden case's failure at another size keeps no detail; the sizes and the verdict stay.
TEST(SubgroupSizesTest, AHiddenCaseFailingAtAnotherSizeShowsNoData) {
    Puzzle p = test::puzzleNamed("reduce-subgroup");
    p.cases[1].hidden = true;
    CheckReport r = checkAtEverySize(p, sourcesOf(p, dataKernel("reduce-assumes-8-lanes")), 8);
    hideHiddenCases(r, p);
    for (const SubgroupSizeRun& s : r.otherSizes)
        for (const CaseFailure& f : s.failures)
            EXPECT_EQ(f.detail.empty(), f.index == 1) << f.index << ": " << f.detail;
    EXPECT_FALSE(r.allPass());
}

// The app's live loop: the device's own verdict, then each size; the status line says what the
// sizes found, and the puzzle does not count as passed while a size fails.
TEST(SubgroupSizesTest, TheLiveLoopChecksEverySizeAfterTheDevicesOwn) {
    using namespace std::chrono_literals;
    LiveOptions o;
    o.debounce = 10ms;
    o.runnerFactory = [](const ContextOptions& c) -> Result<std::unique_ptr<DeviceRunner>> {
        ContextOptions eight = c; // the device pinned at 8 lanes, whatever this CPU's width
        eight.deviceSelector = "cpu";
        eight.subgroupLanes = 8;
        return workerFactory()(eight);
    };
    o.subgroupSizeFactory = workerFactory();
    LiveSession session(o);
    const Puzzle& p = test::puzzleNamed("reduce-subgroup");
    auto wrong = readTextFile(dataKernel("reduce-assumes-8-lanes"));
    ASSERT_TRUE(wrong);
    session.open(p, *wrong);
    ASSERT_TRUE(session.waitUntilSettled(300s));
    LiveSnapshot s = session.snapshot();
    ASSERT_TRUE(s.current()) << statusLine(s);
    EXPECT_TRUE(s.sizesDue.empty());
    ASSERT_EQ(lanesOf(*s.report), (std::vector<uint32_t>{4, 16, 32, 64})) << statusLine(s);
    EXPECT_FALSE(s.report->allPass());
    EXPECT_FALSE(puzzleCasesPass(*s.report, p));
    EXPECT_EQ(statusLine(s), "right with 8 lanes, wrong with 4, 16, 32 and 64 (32 and 64 "
                             "emulated): does the kernel assume a subgroup size?");
    auto right = readKernelTexts(p, true);
    ASSERT_TRUE(right);
    session.edit(*right);
    ASSERT_TRUE(session.waitUntilSettled(300s));
    s = session.snapshot();
    ASSERT_TRUE(s.current()) << statusLine(s);
    EXPECT_TRUE(s.report->allPass()) << statusLine(s);
    EXPECT_EQ(lanesOf(*s.report), (std::vector<uint32_t>{4, 16, 32, 64}));
    EXPECT_TRUE(puzzleCasesPass(*s.report, p));
    EXPECT_EQ(statusLine(s), "all 5 cases pass");
    // While sizes are due, the line says which, after the device's own verdict.
    s.sizesDue = {16, 4};
    EXPECT_EQ(statusLine(s), "all 5 cases pass with 8 lanes; checking with 4 and 16 lanes");
    EXPECT_TRUE(s.busy());
}

TEST(SubgroupSizesTest, LanesAreListedInOrder) {
    EXPECT_EQ(lanesText({16, 4}), "4 and 16 lanes");
    EXPECT_EQ(lanesText({16, 8, 4}), "4, 8 and 16 lanes");
    EXPECT_EQ(lanesText({64, 16, 32}), "16, 32 and 64 lanes (32 and 64 emulated)");
    EXPECT_EQ(sizeName(4), "4 lanes");
    EXPECT_EQ(sizeName(64), "64 lanes (emulated)");
}

} // namespace
} // namespace vkp
