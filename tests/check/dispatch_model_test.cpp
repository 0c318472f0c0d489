// The dispatches of multi-pass cases, as the views show them: the picker's list and default, each
// dispatch's real launch, the buffers before each dispatch replayed from the earlier dispatches'
// traces, and trace lines moved into the kernel's section of the whole text. Real traces, made
// by a real check on the test device (lavapipe on CI); plus synthetic traces for the cases the
// replay cannot tell.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include <unistd.h>

#include "base/source_text.h"
#include "check/kernel_text.h"
#include "gpu/device_runner.h"
#include "puzzle/passes.h"
#include "support/engines.h"
#include "support/trace_builder.h"
#include "views/dispatch_model.h"
#include "views/trace_model.h"

namespace vkp::views {
namespace {

using test::engines;

const Puzzle& puzzle(const std::string& name) {
    return test::puzzleNamed(name);
}

std::string officialText(const Puzzle& p) {
    auto text = readKernelTexts(p, /*solution=*/true);
    return text ? *text : std::string();
}

// One traced case of a joined kernel text, as the app checks it.
struct Checked {
    CheckReport report;
    std::shared_ptr<const std::string> source;
    const CaseOutcome& outcome() const { return report.cases.front(); }
};

Checked check(const Puzzle& p, const std::string& text, size_t caseIndex) {
    EXPECT_TRUE(engines().gpu) << "no Vulkan device";
    InProcessRunner runner(*engines().gpu);
    CheckOptions o;
    o.trace = true;
    o.onlyCase = caseIndex;
    Checked c{checkKernelText(engines().compiler, runner, p, text, "kernel.comp", o),
              std::make_shared<const std::string>(text)};
    EXPECT_EQ(c.report.cases.size(), 1u) << (c.report.error ? c.report.error->message : "");
    return c;
}

std::string replaced(std::string text, const std::string& what, const std::string& with) {
    size_t at = text.find(what);
    EXPECT_NE(at, std::string::npos) << what;
    if (at != std::string::npos) text.replace(at, what.size(), with);
    return text;
}

std::vector<uint32_t> words(std::initializer_list<uint32_t> w) {
    return w;
}

TEST(DispatchTest, TheListNamesEveryDispatchWithItsLaunchAndBindings) {
    const Puzzle& hs = puzzle("scan-hillis-steele");
    Checked c = check(hs, officialText(hs), 0); // 8 elements, workgroups of 4: 3 steps
    ASSERT_TRUE(c.outcome().pass);
    auto entries = dispatchEntries(hs, 0, &c.outcome());
    ASSERT_EQ(entries.size(), 3u);
    for (size_t d = 0; d < 3; ++d) {
        EXPECT_EQ(entries[d].label, "step (" + std::to_string(d + 1) + " of 3)");
        EXPECT_EQ(entries[d].workgroups, (std::array<uint32_t, 3>{2, 1, 1}));
        EXPECT_EQ(entries[d].trace, c.outcome().dispatches[d].trace);
        EXPECT_EQ(entries[d].errors, 0u);
    }
    EXPECT_EQ(dispatchTitle(entries, 1), "2 of 3 \xC2\xB7 step (2 of 3)");
    // The swap: in the second step src's binding holds the memory that started as dst.
    EXPECT_EQ(entries[0].bufferAt, (std::vector<size_t>{0, 1}));
    EXPECT_EQ(entries[1].bufferAt, (std::vector<size_t>{1, 0}));
    EXPECT_EQ(swappedText(hs, entries[1]),
              "src is the memory that started as dst, dst is the memory that started as src");
    EXPECT_EQ(swappedText(hs, entries[2]), "");

    const Puzzle& blocks = puzzle("scan-blocks");
    auto three = dispatchEntries(blocks, 0, nullptr); // not run: launches and labels still known
    ASSERT_EQ(three.size(), 3u);
    EXPECT_EQ(three[0].label, "scan_tiles");
    EXPECT_EQ(three[1].label, "scan_sums");
    EXPECT_EQ(three[2].label, "add_offsets");
    EXPECT_FALSE(three[0].trace);

    const Puzzle& map = puzzle("map");
    auto one = dispatchEntries(map, 0, nullptr);
    ASSERT_EQ(one.size(), 1u) << "a single-pass case is one dispatch";
    EXPECT_EQ(one[0].workgroups, map.cases[0].workgroups);
}

TEST(DispatchTest, TheDefaultIsTheFirstDispatchWithAFailingFinding) {
    const Puzzle& blocks = puzzle("scan-blocks");
    std::string good = officialText(blocks);
    Checked ok = check(blocks, good, 0);
    EXPECT_EQ(defaultDispatch(dispatchEntries(blocks, 0, &ok.outcome()), &ok.outcome()), 0u)
        << "no finding: the first";
    // scan_sums without the barrier between its in-place scan and its store: a race in pass 2 only.
    std::string racy = replaced(good, "            running += v;\n        }\n        barrier();\n",
                                "            running += v;\n        }\n");
    Checked bad = check(blocks, racy, 0);
    auto entries = dispatchEntries(blocks, 0, &bad.outcome());
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_EQ(entries[0].errors, 0u);
    EXPECT_GT(entries[1].errors, 0u) << "the race is scan_sums'";
    EXPECT_EQ(defaultDispatch(entries, &bad.outcome()), 1u);
    DispatchCache cache;
    cache.use(&blocks, 0, &bad.outcome(), bad.source);
    EXPECT_EQ(cache.defaultIndex(), 1u);
    EXPECT_EQ(cache.traced(), 3u);
}

TEST(DispatchTest, EachDispatchHasItsOwnLaunch) {
    const Puzzle& blocks = puzzle("scan-blocks");
    Checked c = check(blocks, officialText(blocks), 0); // 20 elements, tiles of 4 threads x 2 items
    DispatchCache cache;
    cache.use(&blocks, 0, &c.outcome(), c.source);
    auto dispatches = caseDispatches(blocks, 0);
    ASSERT_TRUE(dispatches);
    ASSERT_EQ(cache.entries().size(), 3u);
    std::array<std::array<uint32_t, 3>, 3> want{{{3, 1, 1}, {1, 1, 1}, {3, 1, 1}}};
    for (size_t d = 0; d < 3; ++d) {
        const TestCase* launch = cache.launchCase(d);
        ASSERT_TRUE(launch);
        EXPECT_EQ(launch->workgroups, want[d]) << d;
        EXPECT_EQ(launch->workgroups, (*dispatches)[d].workgroups);
        EXPECT_EQ(launch->workgroupSize, blocks.cases[0].workgroupSize);
        EXPECT_EQ(launch->threadCount(), d == 1 ? 4u : 12u);
        EXPECT_EQ(cache.trace(d)->launch.workgroups, launch->workgroups)
            << "the grid and the trace agree";
    }
    EXPECT_EQ(blocks.cases[0].workgroups, (std::array<uint32_t, 3>{1, 1, 1}))
        << "the case's own count is not the launch";
}

// Hillis-Steele on 13 elements: before step d (0-based) every cell holds the sum of the 2^d
// elements ending at it; the replay must give exactly that, in the buffer the step reads.
TEST(DispatchTest, ALaterDispatchStartsFromWhatTheEarlierOnesWrote) {
    const Puzzle& hs = puzzle("scan-hillis-steele");
    Checked c = check(hs, officialText(hs), 1);
    ASSERT_TRUE(c.outcome().pass);
    DispatchCache cache;
    cache.use(&hs, 1, &c.outcome(), c.source);
    ASSERT_EQ(cache.entries().size(), 4u);
    const std::vector<uint32_t>& a = c.outcome().inputs[0].words;
    for (size_t d = 0; d < 4; ++d) {
        const DispatchMemory* m = cache.memory(d);
        ASSERT_TRUE(m);
        EXPECT_TRUE(m->exact) << (m->notes.empty() ? "" : m->notes.front());
        std::vector<uint32_t> window(a.size(), 0);
        for (size_t i = 0; i < a.size(); ++i)
            for (size_t j = i + 1 > (1u << d) ? i + 1 - (1u << d) : 0; j <= i; ++j)
                window[i] += a[j];
        EXPECT_EQ(m->before[0].words, window) << "src before step " << d + 1;
        EXPECT_TRUE(m->wrote[1]);
        EXPECT_FALSE(m->wrote[0]);
        if (d > 0)
            EXPECT_EQ(m->before[0].words, cache.memory(d - 1)->after[1].words)
                << "what the last step wrote as dst, this one reads as src";
    }
    EXPECT_EQ(cache.memory(3)->after[1].words, c.outcome().outputs[0].actual.words)
        << "the replay ends where the device did";

    const Puzzle& blocks = puzzle("scan-blocks");
    Checked b = check(blocks, officialText(blocks), 0);
    DispatchCache bc;
    bc.use(&blocks, 0, &b.outcome(), b.source);
    // puzzle.toml's worked example: after pass 1 sums = [31, 49, 17], after pass 2 [0, 31, 80].
    EXPECT_EQ(bc.memory(1)->before[2].words, words({31, 49, 17}));
    EXPECT_EQ(bc.memory(1)->after[2].words, words({0, 31, 80}));
    EXPECT_EQ(bc.memory(2)->before[2].words, words({0, 31, 80}));
    EXPECT_EQ(bc.memory(2)->before[1].words,
              words({3, 4, 8, 9, 14, 23, 25, 31, 5, 8, 13, 21, 30, 37, 46, 49, 2, 5, 13, 17}))
        << "add_offsets starts from the tiles scanned on their own";
    EXPECT_EQ(bc.memory(2)->after[1].words, b.outcome().outputs[0].actual.words);
    for (size_t d = 0; d < 3; ++d)
        EXPECT_TRUE(bc.memory(d)->exact) << d;
}

// A compare-and-swap is traced with the value it left, so a BFS whose threads claim nodes with
// atomicCompSwap replays exactly: no "written with different values by several threads" doubt
// about a claimed level, and the replay ends where the device did.
TEST(DispatchTest, ACompareAndSwapClaimReplaysExactly) {
    const Puzzle& bfs = puzzle("bfs");
    std::string text = replaced(officialText(bfs), "atomicMin(result[v], int(level) + 1)",
                                "atomicCompSwap(result[v], UNREACHED, int(level) + 1)");
    Checked c = check(bfs, text, 4); // case 5: 8 nodes of a level all pointing at the same 8
    ASSERT_TRUE(c.outcome().pass);
    DispatchCache cache;
    cache.use(&bfs, 4, &c.outcome(), c.source);
    ASSERT_GT(cache.entries().size(), 3u);
    size_t last = cache.entries().size() - 1;
    for (size_t d = 0; d <= last; ++d) {
        const DispatchMemory* m = cache.memory(d);
        ASSERT_TRUE(m) << d;
        EXPECT_TRUE(m->exact) << "dispatch " << d + 1 << ": "
                              << (m->notes.empty() ? "" : m->notes.front());
    }
    size_t result = 0;
    while (result < bfs.buffers.size() && bfs.buffers[result].name != "result")
        ++result;
    ASSERT_LT(result, bfs.buffers.size());
    EXPECT_EQ(cache.memory(last)->after[result].words, c.outcome().outputs[0].actual.words)
        << "the replay ends where the device did";
}

TEST(DispatchTest, TraceLinesLandInTheDispatchsKernelSection) {
    const Puzzle& blocks = puzzle("scan-blocks");
    std::string whole =
        replaced(officialText(blocks), "            running += v;\n        }\n        barrier();\n",
                 "            running += v;\n        }\n");
    Checked c = check(blocks, whole, 0);
    auto sections = splitKernelText(blocks, whole);
    ASSERT_TRUE(sections);
    DispatchCache cache;
    cache.use(&blocks, 0, &c.outcome(), c.source);
    std::vector<uint32_t> offsets = cache.lineOffsets();
    ASSERT_EQ(offsets.size(), 3u);
    EXPECT_EQ(offsets[0], 1u) << "the marker line comes first";
    for (size_t d = 0; d < 3; ++d) {
        const DispatchEntry& e = cache.entries()[d];
        const KernelSection& section = (*sections)[e.kernel];
        const Trace& original = *c.outcome().dispatches[d].trace;
        const Trace& shown = *cache.trace(d);
        uint32_t end = e.kernel + 1 < offsets.size() ? offsets[e.kernel + 1] : UINT32_MAX;
        size_t checked = 0;
        for (size_t inv = 0; inv < shown.threads.size(); ++inv)
            for (size_t k = 0; k < shown.threads[inv].size(); ++k) {
                uint32_t line = shown.threads[inv][k].line, own = original.threads[inv][k].line;
                if (own == 0) continue;
                EXPECT_EQ(line, own + offsets[e.kernel]);
                EXPECT_GT(line, offsets[e.kernel]);
                EXPECT_LT(line, end) << "inside " << section.source.name << "'s section";
                EXPECT_EQ(kernelOfLine(blocks, offsets, line), e.kernel);
                if (checked++ < 50)
                    EXPECT_EQ(sourceLine(whole, static_cast<int>(line)),
                              sourceLine(section.source.text, static_cast<int>(own)));
            }
        EXPECT_GT(checked, 0u);
        // The editor marks the selected thread's lines: inside the section too.
        for (uint32_t line : threadFootprint(shown, 1).lines)
            EXPECT_TRUE(line > offsets[e.kernel] && line < end) << line;
    }
    // The race's finding points into scan_sums' section, line and message.
    const TraceAnalysis& own = *c.outcome().dispatches[1].analysis;
    const TraceAnalysis& shown = *cache.analysis(1);
    ASSERT_FALSE(own.findings.empty());
    ASSERT_EQ(shown.findings.size(), own.findings.size());
    const Finding& f = shown.findings.front();
    EXPECT_EQ(f.kind, FindingKind::SharedRace);
    EXPECT_EQ(f.line, own.findings.front().line + offsets[1]);
    EXPECT_NE(f.message.find("line " + std::to_string(f.line)), std::string::npos) << f.message;
    EXPECT_EQ(kernelOfLine(blocks, offsets, f.line), 1u);

    const Puzzle& hs = puzzle("scan-hillis-steele");
    Checked one = check(hs, officialText(hs), 0);
    DispatchCache single;
    single.use(&hs, 0, &one.outcome(), one.source);
    EXPECT_EQ(single.trace(1), one.outcome().dispatches[1].trace)
        << "one kernel: the lines are the text's already";
}

// Synthetic: where the trace cannot tell the final value, the replay says so instead of
// inventing it; atomics that form one chain are exact.
TEST(DispatchReplayTest, WhatTheTraceCannotTellIsNoted) {
    Puzzle p;
    p.buffers = {{"a", 0, ElementKind::Uint, RoleKind::Input},
                 {"n", 1, ElementKind::Uint, RoleKind::Output}};
    p.kernels = {{"k", "", "", {0, 1}}};
    test::TraceBuilder first({2, 1, 1});
    uint32_t a = first.buffer("a", 2), n = first.buffer("n", 1);
    for (auto& v : first.t.variables)
        v.decl.elementType = ElementKind::Uint;
    first.write(0, a, 0, 7, 10)
        .write(1, a, 0, 8, 10); // two values for a[0]: which came last is not traced
    first.atomic(0, n, 0, 11, 5, 2).atomic(1, n, 0, 11, 7, 3); // 5 + 2 = 7, then 7 + 3 = 10
    test::TraceBuilder second({2, 1, 1});
    uint32_t a2 = second.buffer("a", 2);
    second.buffer("n", 1);
    for (auto& v : second.t.variables)
        v.decl.elementType = ElementKind::Uint;
    second.read(0, a2, 1, 20, 4);
    std::vector<DispatchEntry> entries(2);
    entries[0].label = "k (1 of 2)";
    entries[1].label = "k (2 of 2)";
    entries[0].bufferAt = entries[1].bufferAt = {0, 1};
    entries[0].trace = std::make_shared<const Trace>(first.t);
    entries[1].trace = std::make_shared<const Trace>(second.t);
    std::vector<BufferData> initial{{ElementKind::Uint, Shape{{2}}, {1, 4}},
                                    {ElementKind::Uint, Shape{{1}}, {5}}};
    std::vector<std::map<uint32_t, AtomicOpKind>> ops(2);
    ops[0][11] = AtomicOpKind::Add;
    DispatchReplay replay(p, initial, entries, ops);
    ASSERT_EQ(replay.size(), 2u);
    EXPECT_EQ(replay.at(0).after[1].words, words({10})) << "the chain's end";
    EXPECT_FALSE(replay.at(0).exact);
    ASSERT_EQ(replay.at(0).notes.size(), 1u);
    EXPECT_NE(replay.at(0).notes[0].find("a[0]"), std::string::npos) << replay.at(0).notes[0];
    EXPECT_FALSE(replay.at(1).exact) << "a later dispatch inherits the doubt";
    EXPECT_NE(replay.at(1).notes[0].find("dispatch 1 (k (1 of 2))"), std::string::npos)
        << replay.at(1).notes[0];
    // A read that disagrees with the replay is caught.
    test::TraceBuilder third({1, 1, 1});
    uint32_t a3 = third.buffer("a", 2);
    for (auto& v : third.t.variables)
        v.decl.elementType = ElementKind::Uint;
    third.read(0, a3, 1, 30, 9); // the replay has 4
    std::vector<DispatchEntry> two{entries[1], entries[1]};
    two[1].trace = std::make_shared<const Trace>(third.t);
    DispatchReplay misread(p, initial, two);
    EXPECT_TRUE(misread.at(0).exact);
    EXPECT_FALSE(misread.at(1).exact);
    EXPECT_NE(misread.at(1).notes.back().find("a[1] read 9, the replay has 4"), std::string::npos)
        << misread.at(1).notes.back();
}

} // namespace
} // namespace vkp::views
