// Whole composites on a real device: a copy of a whole shared array, and a whole vec2 element,
// come back in the trace as one event per scalar, each at the cell's own index with the value
// that was read or written (rewrite/access_log_rewriter.h). Kernels in
// tests/data/traced/composite-*.
#include <gtest/gtest.h>

#include <bit>
#include <optional>

#include "check/check.h"
#include "check/kernel_text.h"
#include "support/engines.h"

namespace vkp {
namespace {

using test::engines;

std::string traced(const std::string& name) {
    return test::sourceDir() + "/tests/data/traced/" + name;
}

// Case `onlyCase` (0-based) of block-sum, traced.
CheckReport checkBlockSum(const std::string& name, size_t onlyCase) {
    CheckOptions o;
    o.trace = true;
    o.onlyCase = onlyCase;
    auto src = readTextFile(traced(name));
    EXPECT_TRUE(src.ok()) << name;
    return checkKernel(engines().compiler, *engines().gpu, test::puzzleNamed("block-sum"),
                       src ? *src : "", name, o);
}

std::vector<TraceEvent> eventsAt(const std::vector<TraceEvent>& thread, uint32_t line,
                                 TraceEventKind kind) {
    std::vector<TraceEvent> found;
    for (const TraceEvent& e : thread)
        if (e.line == line && e.kind == kind) found.push_back(e);
    return found;
}

uint32_t bits(float f) {
    return std::bit_cast<uint32_t>(f);
}

TEST(CompositeTrace, AWholeArrayCopyIsOneReadPerCellAndAStoreOneWritePerCell) {
    ASSERT_TRUE(engines().gpu);
    // Case 1: one workgroup of 8, a = 0..7; cells 8..15 hold 0.
    CheckReport r = checkBlockSum("composite-block-sum-whole-copies.comp", 0);
    ASSERT_EQ(r.reached, StageKind::Done);
    ASSERT_EQ(r.cases.size(), 1u);
    const CaseOutcome& c = r.cases[0];
    EXPECT_TRUE(c.pass);
    ASSERT_TRUE(c.trace);
    ASSERT_EQ(c.trace->threads.size(), 8u);
    for (size_t t = 0; t < 8; ++t) {
        auto reads = eventsAt(c.trace->threads[t], 26, TraceEventKind::Read); // tmp = cache
        ASSERT_EQ(reads.size(), 16u) << "thread " << t;
        for (uint32_t k = 0; k < 16; ++k) {
            EXPECT_EQ(reads[k].index, k);
            EXPECT_EQ(reads[k].value, bits(k < 8 ? float(k) : 0.0f)) << "cell " << k;
            EXPECT_EQ(reads[k].round, 1u);
        }
    }
    // Thread 0 stores its copy back whole, with the total (0 + 1 + ... + 7) in cell 0.
    auto writes = eventsAt(c.trace->threads[0], 33, TraceEventKind::Write); // cache = tmp
    ASSERT_EQ(writes.size(), 16u);
    for (uint32_t k = 0; k < 16; ++k) {
        EXPECT_EQ(writes[k].index, k);
        EXPECT_EQ(writes[k].value, bits(k == 0 ? 28.0f : k < 8 ? float(k) : 0.0f)) << "cell " << k;
        EXPECT_EQ(writes[k].round, 2u);
    }
    EXPECT_TRUE(eventsAt(c.trace->threads[1], 33, TraceEventKind::Write).empty());
}

TEST(CompositeTrace, AWholeVectorElementIsOneEventPerComponent) {
    ASSERT_TRUE(engines().gpu);
    // Case 1: one workgroup of 8, a = 0..7; cache[t] = (a[t], 1) is scalars 2t and 2t + 1.
    CheckReport r = checkBlockSum("composite-block-sum-vec2-missing-barrier.comp", 0);
    ASSERT_EQ(r.reached, StageKind::Done);
    ASSERT_EQ(r.cases.size(), 1u);
    const CaseOutcome& c = r.cases[0];
    EXPECT_FALSE(c.pass);
    ASSERT_TRUE(c.trace);
    ASSERT_EQ(c.trace->threads.size(), 8u);
    for (uint32_t t = 0; t < 8; ++t) {
        auto stored = eventsAt(c.trace->threads[t], 18, TraceEventKind::Write);
        ASSERT_EQ(stored.size(), 2u) << "thread " << t;
        EXPECT_EQ(stored[0].index, 2 * t);
        EXPECT_EQ(stored[0].value, bits(float(t)));
        EXPECT_EQ(stored[1].index, 2 * t + 1);
        EXPECT_EQ(stored[1].value, bits(1.0f));
        // Both scalars say they are one vec2 store, so the efficiency model sees one request.
        EXPECT_EQ(stored[0].extra, packVectorPart(2, 0));
        EXPECT_EQ(stored[1].extra, packVectorPart(2, 1));
    }
    // In the tree's first step thread 0 reads cache[4] whole, which nobody writes in that step
    // (threads 0..3 write cells 0..3): scalars 8 and 9, holding (a[4], 1).
    auto other = eventsAt(c.trace->threads[0], 24, TraceEventKind::Read);
    ASSERT_GE(other.size(), 2u);
    EXPECT_EQ(other[0].index, 8u);
    EXPECT_EQ(other[0].value, bits(4.0f));
    EXPECT_EQ(other[1].index, 9u);
    EXPECT_EQ(other[1].value, bits(1.0f));
    EXPECT_EQ(other[1].extra, packVectorPart(2, 1));
    bool race = false;
    for (const Finding& f : c.analysis->findings)
        race |= f.kind == FindingKind::SharedRace && (f.line == 24 || f.line == 25);
    EXPECT_TRUE(race);
}

// A buffer's vec4 view on lavapipe (issue 53): the vec4 variant of Coalesced access's solution
// (tests/data/perf-track/coalesced/vec4.comp) on case 4, a 2 x 75 matrix of 150 floats. Each of
// threads 0 to 36 loads a4[t] whole: four events, at the floats' own indices, with their values,
// each marked as part of one vec4, and one read in the thread's traffic. Thread 37 takes the
// tail, a[148] and a[149], through the float view; both views are one buffer's cells.
TEST(CompositeTrace, AVec4ViewOfABufferIsOneRequestOfFourCells) {
    ASSERT_TRUE(engines().gpu);
    std::string path = test::sourceDir() + "/tests/data/perf-track/coalesced/vec4.comp";
    auto src = readTextFile(path);
    ASSERT_TRUE(src.ok());
    CheckOptions o;
    o.trace = true;
    o.onlyCase = 3;
    const Puzzle& puzzle = test::puzzleNamed("coalesced");
    CheckReport r = checkKernel(engines().compiler, *engines().gpu, puzzle, *src, path, o);
    ASSERT_EQ(r.reached, StageKind::Done);
    ASSERT_EQ(r.cases.size(), 1u);
    const CaseOutcome& c = r.cases[0];
    EXPECT_TRUE(c.pass);
    ASSERT_TRUE(c.trace && c.analysis);
    const Trace& t = *c.trace;
    ASSERT_FALSE(c.inputs.empty());
    const BufferData& a = c.inputs[0];
    ASSERT_EQ(a.words.size(), 150u);
    for (uint32_t i = 0; i < 37; ++i) {
        auto reads = eventsAt(t.threads[i], 21, TraceEventKind::Read);
        ASSERT_EQ(reads.size(), 4u) << "thread " << i;
        for (uint32_t k = 0; k < 4; ++k) {
            EXPECT_EQ(t.variables[reads[k].variable].decl.name, "a4");
            EXPECT_EQ(reads[k].index, 4 * i + k);
            EXPECT_EQ(reads[k].value, a.words[4 * i + k]);
            EXPECT_EQ(reads[k].extra, packVectorPart(4, k));
        }
        EXPECT_EQ(traceCellName(t, reads[1].variable, reads[1].index),
                  "a4[" + std::to_string(i) + "].y");
        EXPECT_EQ(c.analysis->traffic[i].globalReads, 1u) << "thread " << i;
        EXPECT_EQ(c.analysis->traffic[i].globalWrites, 1u) << "thread " << i;
    }
    auto tail = eventsAt(t.threads[37], 25, TraceEventKind::Read);
    ASSERT_EQ(tail.size(), 2u);
    EXPECT_EQ(t.variables[tail[0].variable].decl.name, "a");
    EXPECT_EQ(tail[0].index, 148u);
    EXPECT_EQ(tail[1].index, 149u);
    EXPECT_EQ(tail[1].extra, 0u);
    uint32_t a4 = eventsAt(t.threads[0], 21, TraceEventKind::Read).front().variable;
    EXPECT_NE(a4, tail[0].variable);
    EXPECT_EQ(cellOwner(t, a4), cellOwner(t, tail[0].variable)); // one memory
    EXPECT_EQ(c.analysis->traffic[37].globalReads, 2u);
    EXPECT_TRUE(c.analysis->findings.empty());
}

} // namespace
} // namespace vkp
