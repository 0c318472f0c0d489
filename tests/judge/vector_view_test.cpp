// Buffers read through vector views (`vec4 a4[]`, issue 53) in the judge, on hand-built traces:
// a vec4 moved whole is one request against global_reads and global_writes, one out-of-bounds
// access named as the vector (and, where it starts inside the buffer, why it ends past it), one
// memory with the float view of the same binding, and a 16-byte access a lane for coalescing.
#include <gtest/gtest.h>

#include "judge/efficiency.h"
#include "support/trace_builder.h"

namespace vkp {
namespace {

using namespace test;

// The kernel the traces below stand for: a float view and a vec4 view of binding 0.
const char* kSource = "#version 450\n"
                      "layout(set = 0, binding = 0) readonly buffer A { float a[]; };\n"
                      "layout(set = 0, binding = 0) readonly buffer A4 { vec4 a4[]; };\n"
                      "layout(set = 0, binding = 1) buffer Result { float result[]; };\n";

// Buffer `a` of `length` floats (binding 0) and its vec4 view `a4`, in `b`'s trace.
struct Views {
    uint32_t a = 0, a4 = 0;
};
Views floatAndVec4(TraceBuilder& b, uint64_t length) {
    Views v;
    v.a = b.buffer("a", length);
    v.a4 = b.buffer("a4", length);
    TraceVariableInfo& view = b.t.variables[v.a4];
    view.decl.elementWidth = 4;
    view.decl.elementType = ElementKind::Float;
    view.puzzleBuffer = b.t.variables[v.a].puzzleBuffer; // the same puzzle buffer
    b.t.source = kSource;
    return v;
}

// One instruction storing a vector of `width` scalars from index `first` on.
void writeVector(TraceBuilder& b, uint64_t inv, uint32_t var, uint32_t first, uint32_t width,
                 uint32_t line) {
    for (uint32_t k = 0; k < width; ++k) {
        b.write(inv, var, first + k, 0, line);
        b.t.threads[inv].back().extra = packVectorPart(width, k);
    }
}

// The point of a vec4 load: one read of four elements. Limits count requests, so a thread that
// moves eight floats as two vec4s keeps global_reads = 2, global_writes = 1; the same floats
// gathered one load at a time are eight reads.
TEST(VectorViews, AWholeVectorIsOneRequestAgainstTheLimits) {
    TraceBuilder b({2, 1, 1});
    Views v = floatAndVec4(b, 16);
    uint32_t result = b.buffer("result", 16);
    b.readVector(0, v.a4, 0, 4, 10).readVector(0, v.a4, 4, 4, 10);
    writeVector(b, 0, result, 0, 4, 11);
    for (uint32_t k = 0; k < 8; ++k)
        b.read(1, v.a, 8 + k, 20);
    b.write(1, result, 8, 0, 21);
    Limits limits;
    limits.globalReads = 2;
    limits.globalWrites = 1;
    TraceAnalysis a = analyzeTrace(b.t, limits);
    EXPECT_EQ(a.traffic[0].globalReads, 2u);
    EXPECT_EQ(a.traffic[0].globalWrites, 1u);
    EXPECT_EQ(a.traffic[1].globalReads, 8u);
    auto over = findingsOf(a, FindingKind::ReadLimit);
    ASSERT_EQ(over.size(), 1u) << allMessages(a);
    EXPECT_EQ(over[0]->threads, (std::vector<uint64_t>{1, 1}));
    EXPECT_TRUE(findingsOf(a, FindingKind::WriteLimit).empty()) << allMessages(a);
    // The efficiency report still counts the elements moved (reads per output cell).
    EXPECT_EQ(a.efficiency.globalReads, 16u);
}

// A vec4 wholly past the end is one access, named as the vector with the view's length.
TEST(VectorViews, AVectorPastTheEndIsOneAccessNamedAsTheVector) {
    TraceBuilder b({3, 1, 1});
    Views v = floatAndVec4(b, 8); // two vec4s
    for (uint32_t t = 0; t < 3; ++t)
        b.readVector(t, v.a4, 4 * t, 4, 13);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto oob = findingsOf(a, FindingKind::OutOfBounds);
    ASSERT_EQ(oob.size(), 1u) << allMessages(a);
    EXPECT_EQ(oob[0]->message,
              "thread 2 reads a4[2] (line 13), past the end of a4 (8 floats: 2 vec4s)");
    EXPECT_EQ(oob[0]->occurrences, 1u) << "one access, not one per scalar";
    EXPECT_EQ(oob[0]->index, 8u);
    EXPECT_EQ(oob[0]->variable, static_cast<int>(v.a4));
    // A component read on its own (`a4[2].y`) is named by its component.
    TraceBuilder c({1, 1, 1});
    Views w = floatAndVec4(c, 10);
    c.read(0, w.a4, 13, 14);
    TraceAnalysis one = analyzeTrace(c.t, Limits{});
    ASSERT_EQ(one.findings.size(), 1u) << allMessages(one);
    EXPECT_EQ(one.findings[0].message, "thread 0 reads a4[3].y (line 14), past the end of a4 (10 "
                                       "floats: 2 whole vec4s and 2 more)");
}

// A length that is not a multiple of the view's width: the last vec4 starts inside the buffer
// and ends past it. The finding says so, with the view's declaration and what is left inside;
// a kernel that reads those scalars one by one has nothing to answer for.
TEST(VectorViews, AVectorThatRunsPastTheEndSaysTheLengthIsNoMultiple) {
    TraceBuilder b({3, 1, 1});
    Views v = floatAndVec4(b, 10);
    b.readVector(0, v.a4, 0, 4, 13).readVector(1, v.a4, 4, 4, 13).readVector(2, v.a4, 8, 4, 13);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto oob = findingsOf(a, FindingKind::OutOfBounds);
    ASSERT_EQ(oob.size(), 1u) << allMessages(a);
    EXPECT_EQ(oob[0]->message,
              "thread 2 reads a4[2] (line 13), which runs past the end of the buffer: binding 0 "
              "('a4', line 3) is read as vec4, but this case's buffer has 10 floats, not a "
              "multiple of 4, so only a4[2].x and .y are inside it; read those 2 floats on their "
              "own behind a guard");
    EXPECT_EQ(oob[0]->occurrences, 1u);
    EXPECT_EQ(oob[0]->index, 10u); // the first scalar past the end
    // The tail read as floats, through either view: in bounds.
    TraceBuilder tail({3, 1, 1});
    Views w = floatAndVec4(tail, 10);
    tail.readVector(0, w.a4, 0, 4, 13).readVector(1, w.a4, 4, 4, 13);
    tail.read(2, w.a4, 8, 15).read(2, w.a, 9, 16);
    EXPECT_TRUE(analyzeTrace(tail.t, Limits{}).findings.empty());
    // A store says write.
    TraceBuilder store({1, 1, 1});
    Views s = floatAndVec4(store, 5);
    writeVector(store, 0, s.a4, 4, 4, 18);
    TraceAnalysis w4 = analyzeTrace(store.t, Limits{});
    ASSERT_EQ(w4.findings.size(), 1u) << allMessages(w4);
    EXPECT_TRUE(contains(w4.findings[0].message,
                         "writes a4[1] (line 18), which runs past the end of the buffer: binding 0 "
                         "('a4', line 3) is written as vec4, but this case's buffer has 5 floats"))
        << w4.findings[0].message;
    EXPECT_TRUE(contains(w4.findings[0].message, "so only a4[1].x is inside it; write that float "
                                                 "on its own behind a guard"))
        << w4.findings[0].message;
}

// The float view and the vec4 view are one memory: a float written by one workgroup and read
// in a vec4 by another is a race, a float and a vec4 written over it a write conflict, each one
// finding (not one per scalar of the vector).
TEST(VectorViews, TwoViewsOfOneBindingAreOneMemory) {
    TraceBuilder b({1, 1, 1}, {2, 1, 1});
    Views v = floatAndVec4(b, 16);
    b.write(0, v.a, 5, 7, 20);
    writeVector(b, 1, v.a4, 4, 4, 21);
    b.readVector(1, v.a4, 4, 4, 22);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto conflicts = findingsOf(a, FindingKind::GlobalWriteConflict);
    ASSERT_EQ(conflicts.size(), 1u) << allMessages(a);
    EXPECT_EQ(conflicts[0]->message, "thread 0 (local 0 of workgroup 0) and thread 1 (local 0 of "
                                     "workgroup 1) both write a4[1].y (line 21): which value "
                                     "remains is up to the GPU");
    EXPECT_EQ(conflicts[0]->occurrences, 1u);
    auto races = findingsOf(a, FindingKind::GlobalRace);
    ASSERT_EQ(races.size(), 1u) << allMessages(a);
    EXPECT_TRUE(contains(races[0]->message, "thread 1 (local 0 of workgroup 1) reads a4[1].y "
                                            "(line 22), which thread 0 (local 0 of workgroup 0) "
                                            "writes (line 20)"))
        << races[0]->message;
    EXPECT_EQ(races[0]->occurrences, 1u);
    // The cells written count once, whichever view wrote them.
    EXPECT_EQ(a.efficiency.cellsWritten, 4u);
}

// 32 lanes reading neighbouring vec4s move 512 bytes in one request: 16 sectors, all needed.
// Lanes apart in the subgroup are apart by a vec4 each, not a float: lanes 0 and 2 reading
// theirs need two sectors, and touch two. A stride is said in bytes between lanes.
TEST(VectorViews, AVectorRequestIsJudgedAtSixteenBytesALane) {
    auto reads = [](std::vector<uint32_t> lanes, uint32_t stride) {
        TraceBuilder b({32, 1, 1});
        Views v = floatAndVec4(b, 4096);
        for (uint32_t lane : lanes)
            b.readVector(lane, v.a4, stride * lane, 4, 10);
        return analyzeEfficiency(b.t);
    };
    std::vector<uint32_t> all;
    for (uint32_t i = 0; i < 32; ++i)
        all.push_back(i);
    EfficiencyReport whole = reads(all, 4);
    ASSERT_EQ(whole.sites.size(), 1u);
    EXPECT_EQ(whole.sites[0].requests, 1u);
    EXPECT_EQ(whole.sites[0].sectors, 16u);
    EXPECT_EQ(whole.sites[0].neededSectors, 16u);
    EXPECT_EQ(whole.globalEfficiency, 1.0);

    EfficiencyReport gap = reads({0, 2}, 4);
    EXPECT_EQ(gap.sites[0].sectors, 2u);
    EXPECT_EQ(gap.sites[0].neededSectors, 2u);
    EXPECT_EQ(gap.globalEfficiency, 1.0);

    EfficiencyReport strided = reads(all, 8); // every other vec4: twice the sectors
    EXPECT_EQ(strided.sites[0].sectors, 32u);
    EXPECT_EQ(strided.sites[0].neededSectors, 16u);
    ASSERT_EQ(strided.lines.size(), 1u);
    EXPECT_TRUE(contains(strided.lines[0].sentence, "neighbouring threads read addresses 32 bytes "
                                                    "apart"))
        << strided.lines[0].sentence;
}

} // namespace
} // namespace vkp
