// The efficiency lens on hand-built traces: sectors per global request, bank conflicts, divergent
// lanes, repeated reads and atomic contention under the default model (32 lanes, 32-byte
// sectors, 32 banks of 4 bytes), and requestOf.
#include <gtest/gtest.h>

#include <map>

#include "judge/efficiency.h"
#include "judge/efficiency_text.h"
#include "support/trace_builder.h"

namespace vkp {
namespace {

using namespace test;

const SiteEfficiency* siteAt(const EfficiencyReport& r, uint32_t line) {
    for (const SiteEfficiency& s : r.sites)
        if (s.site.line == line) return &s;
    return nullptr;
}
const LineEfficiency* lineAt(const EfficiencyReport& r, uint32_t line) {
    for (const LineEfficiency& l : r.lines)
        if (l.line == line) return &l;
    return nullptr;
}

// One workgroup of `n` threads; thread i reads a[index(i)] at line 10.
template <class F> EfficiencyReport globalReads(uint32_t n, F index, uint64_t length = 4096) {
    TraceBuilder b({n, 1, 1});
    uint32_t a = b.buffer("a", length);
    for (uint32_t i = 0; i < n; ++i)
        b.read(i, a, index(i), 10);
    return analyzeEfficiency(b.t);
}

// Several items per thread: every read, write and atomic of a buffer counts, per thread; shared
// accesses do not, and a cell written twice counts once in cellsWritten but twice here.
TEST(Efficiency, WorkPerThreadCountsEveryGlobalAccess) {
    TraceBuilder b({4, 1, 1});
    uint32_t a = b.buffer("a", 64), out = b.buffer("out", 64);
    uint32_t tile = b.shared("tile", {4});
    for (uint32_t t = 0; t < 4; ++t) {
        for (uint32_t k = 0; k < 3; ++k)
            b.read(t, a, t + 4 * k, 10);
        b.write(t, tile, t, 1, 11);
        b.write(t, out, t, 1, 12);
        b.write(t, out, t, 2, 13);
    }
    b.atomic(0, out, 9, 14);
    EfficiencyReport r = analyzeEfficiency(b.t);
    EXPECT_EQ(r.threads, 4u);
    EXPECT_EQ(r.globalReads, 12u);
    EXPECT_EQ(r.globalWrites, 9u); // 8 stores and the atomic
    EXPECT_EQ(r.cellsWritten, 5u); // out[0..3] and out[9]
}

TEST(Efficiency, ContiguousReadsAreFullyEfficient) {
    EfficiencyReport r = globalReads(64, [](uint32_t i) { return i; });
    const SiteEfficiency* s = siteAt(r, 10);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->requests, 2u); // two subgroups of 32 lanes
    EXPECT_EQ(s->sectors, 8u);  // 32 floats = 128 bytes = 4 sectors per request
    EXPECT_EQ(s->neededSectors, 8u);
    EXPECT_DOUBLE_EQ(s->worstEfficiency, 1.0);
    EXPECT_DOUBLE_EQ(r.globalEfficiency, 1.0);
    EXPECT_EQ(s->divergentRequests, 0u);
    EXPECT_TRUE(r.lines.empty()); // nothing to say
}

TEST(Efficiency, StridedBy32FloatsTouchesOneSectorPerLane) {
    EfficiencyReport r = globalReads(32, [](uint32_t i) { return i * 32; });
    const SiteEfficiency* s = siteAt(r, 10);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->sectors, 32u);      // every lane its own sector
    EXPECT_EQ(s->neededSectors, 4u); // 128 bytes fit in 4
    EXPECT_DOUBLE_EQ(s->worstEfficiency, 4.0 / 32.0);
    EXPECT_DOUBLE_EQ(r.globalEfficiency, 0.125);
    ASSERT_EQ(r.lines.size(), 1u);
    EXPECT_EQ(r.lines[0].line, 10u);
    EXPECT_EQ(r.lines[0].cost, CostKind::Severe);
    EXPECT_EQ(r.lines[0].badge, "8.0x sectors");
    EXPECT_EQ(r.lines[0].sentence, "8.0x the sectors needed: neighbouring threads read addresses "
                                   "128 bytes apart (a request of 32 lanes touched 32 sectors "
                                   "where 4 would hold its bytes)");
    EXPECT_DOUBLE_EQ(r.lines[0].extra, 28.0);
}

TEST(Efficiency, StrideOfTwoFloatsIsTwiceTheSectors) {
    EfficiencyReport r = globalReads(32, [](uint32_t i) { return i * 2; });
    const SiteEfficiency* s = siteAt(r, 10);
    EXPECT_EQ(s->sectors, 8u);
    EXPECT_EQ(s->neededSectors, 4u);
    EXPECT_EQ(r.lines.at(0).cost, CostKind::Notable);
    EXPECT_EQ(r.lines.at(0).badge, "2.0x sectors");
}

TEST(Efficiency, MisalignedContiguousRequestIsEfficient) {
    // Starting at float 3 (byte 12): 5 sectors touched, and no 4 sectors could hold bytes 12..139.
    EfficiencyReport r = globalReads(32, [](uint32_t i) { return i + 3; });
    const SiteEfficiency* s = siteAt(r, 10);
    EXPECT_EQ(s->sectors, 5u);
    EXPECT_EQ(s->neededSectors, 5u);
    EXPECT_DOUBLE_EQ(r.globalEfficiency, 1.0);
}

TEST(Efficiency, OneAddressForAllLanesIsOneSector) {
    EfficiencyReport r = globalReads(32, [](uint32_t) { return 7u; });
    const SiteEfficiency* s = siteAt(r, 10);
    EXPECT_EQ(s->sectors, 1u);
    EXPECT_EQ(s->neededSectors, 1u);
    EXPECT_TRUE(r.lines.empty());
}

// One workgroup of 32 threads; thread i reads the shared cell index(i) at line 20.
template <class F> EfficiencyReport sharedReads(F index, std::vector<uint64_t> dims = {1024}) {
    TraceBuilder b({32, 1, 1});
    uint32_t s = b.shared("tile", dims);
    for (uint32_t i = 0; i < 32; ++i)
        b.read(i, s, index(i), 20);
    return analyzeEfficiency(b.t);
}

TEST(Efficiency, SharedBroadcastIsOneWavefront) {
    EfficiencyReport r = sharedReads([](uint32_t) { return 5u; });
    EXPECT_EQ(siteAt(r, 20)->wavefronts, 1u);
    EXPECT_EQ(r.worstBankWays, 1u);
    EXPECT_TRUE(r.lines.empty());
}

TEST(Efficiency, ConsecutiveSharedWordsHaveNoConflict) {
    EfficiencyReport r = sharedReads([](uint32_t i) { return i; });
    EXPECT_EQ(siteAt(r, 20)->worstWays, 1u);
}

TEST(Efficiency, StrideTwoIsATwoWayConflict) {
    EfficiencyReport r = sharedReads([](uint32_t i) { return 2 * i; });
    const SiteEfficiency* s = siteAt(r, 20);
    EXPECT_EQ(s->worstWays, 2u);
    EXPECT_EQ(s->wavefronts, 2u);
    EXPECT_EQ(s->worstBank, 0u);
    EXPECT_EQ(r.worstBankWays, 2u);
    EXPECT_EQ(r.lines.at(0).badge, "2-way");
    EXPECT_EQ(r.lines.at(0).cost, CostKind::Minor);
}

TEST(Efficiency, ColumnOfATileIsA32WayConflict) {
    // tile[32][32] read down a column: every lane in bank 3.
    EfficiencyReport r = sharedReads([](uint32_t i) { return i * 32 + 3; }, {32, 32});
    const SiteEfficiency* s = siteAt(r, 20);
    EXPECT_EQ(s->worstWays, 32u);
    EXPECT_EQ(s->worstBank, 3u);
    ASSERT_EQ(r.lines.size(), 1u);
    EXPECT_EQ(r.lines[0].cost, CostKind::Severe);
    EXPECT_EQ(r.lines[0].badge, "32-way");
    EXPECT_EQ(r.lines[0].sentence, "32-way bank conflict on tile: lanes 0, 1, 2\u2026 hit bank 3 "
                                   "(tile[0][3], tile[1][3], \u2026)");
}

TEST(Efficiency, PaddedTileColumnHasNoConflict) {
    // tile[32][33]: a column's words are 33 apart, one per bank.
    EfficiencyReport r = sharedReads([](uint32_t i) { return i * 33 + 3; }, {32, 33});
    EXPECT_EQ(siteAt(r, 20)->worstWays, 1u);
    EXPECT_TRUE(r.lines.empty());
}

// A vec4 read is one request of 16 bytes a lane, served 8 lanes at a time: 32 lanes reading
// neighbouring vec4s make no conflict, and the same words read as four scalar loads are four
// requests, each a 4-way conflict. Words of different phases never conflict; words of one do.
TEST(Efficiency, AVectorReadIsOneRequestJudgedEightLanesAtATime) {
    auto vectors = [](auto first) {
        TraceBuilder b({32, 1, 1});
        uint32_t s = b.shared("tile", {256, 4}); // vec4 tile[256]: 4 scalars an element
        b.t.variables[s].decl.elementWidth = 4;
        b.t.variables[s].dims = {256};
        for (uint32_t i = 0; i < 32; ++i)
            b.readVector(i, s, first(i), 4, 20);
        return analyzeEfficiency(b.t);
    };
    EfficiencyReport wide = vectors([](uint32_t i) { return 4 * i; });
    const SiteEfficiency* w = siteAt(wide, 20);
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->requests, 1u);
    EXPECT_EQ(w->activeLanes, 32u);
    EXPECT_EQ(w->worstWays, 1u);
    EXPECT_EQ(w->wavefronts, 1u);
    EXPECT_EQ(wide.sharedReads, 128u) << "reads still count words";
    EXPECT_TRUE(wide.lines.empty());

    // The same 128 words as scalar loads, component by component: lanes 4 words apart.
    EfficiencyReport scalar = sharedReads([](uint32_t i) { return 4 * i; }, {1024});
    EXPECT_EQ(siteAt(scalar, 20)->worstWays, 4u);

    // Lane i reads the vec4 at element 8 * i: in each phase of 8 lanes every lane's words fall
    // in banks 0 to 3, an 8-way conflict, named by the lanes of one phase.
    EfficiencyReport strided = vectors([](uint32_t i) { return 32 * (i % 8); });
    const SiteEfficiency* c = siteAt(strided, 20);
    EXPECT_EQ(c->worstWays, 8u);
    EXPECT_EQ(c->wavefronts, 1u + 4 * 7) << "four phases, each 7 wavefronts past its first";
    ASSERT_EQ(strided.lines.size(), 1u);
    EXPECT_EQ(strided.lines[0].sentence,
              "8-way bank conflict on tile: lanes 0, 1, 2… hit bank 0 (tile[0].x, "
              "tile[8].x, …)");
}

TEST(Efficiency, EveryOtherLaneIdleIsDivergent) {
    TraceBuilder b({64, 1, 1});
    uint32_t a = b.buffer("a", 64);
    for (uint32_t i = 0; i < 64; ++i)
        if (i % 2 == 0) b.write(i, a, i / 2, 1, 14); // contiguous: only the idle lanes cost
    EfficiencyReport r = analyzeEfficiency(b.t);
    const SiteEfficiency* s = siteAt(r, 14);
    EXPECT_EQ(s->requests, 2u);
    EXPECT_EQ(s->activeLanes, 32u);
    EXPECT_EQ(s->subgroupLanes, 64u);
    EXPECT_EQ(s->divergentRequests, 2u);
    EXPECT_EQ(r.mostDivergentRequests, 2u);
    const LineEfficiency* l = lineAt(r, 14);
    ASSERT_TRUE(l);
    EXPECT_EQ(l->badge, "50% idle");
    EXPECT_TRUE(contains(l->sentence, "half the lanes idle at line 14")) << l->sentence;
}

TEST(Efficiency, HalfASubgroupIsDivergentButWholeSubgroupsOffAreNot) {
    TraceBuilder b({128, 1, 1}, {2, 1, 1});
    uint32_t a = b.buffer("a", 256);
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t local = i % 128;
        if (local < 16) b.read(i, a, i, 5);  // half of subgroup 0
        if (local >= 64) b.read(i, a, i, 6); // subgroups 2 and 3 whole, 0 and 1 off
    }
    EfficiencyReport r = analyzeEfficiency(b.t);
    EXPECT_EQ(siteAt(r, 5)->divergentRequests, 2u); // one per workgroup
    EXPECT_EQ(siteAt(r, 6)->divergentRequests, 0u);
    EXPECT_EQ(siteAt(r, 6)->requests, 4u);
    EXPECT_EQ(r.mostDivergentRequests, 1u); // per workgroup
    EXPECT_EQ(lineAt(r, 6), nullptr);
}

TEST(Efficiency, LastSubgroupOfAWorkgroupOf48HasSixteenLanes) {
    TraceBuilder b({48, 1, 1});
    uint32_t a = b.buffer("a", 48);
    for (uint32_t i = 0; i < 48; ++i)
        b.read(i, a, i, 3);
    EfficiencyReport r = analyzeEfficiency(b.t);
    const SiteEfficiency* s = siteAt(r, 3);
    EXPECT_EQ(s->requests, 2u);
    EXPECT_EQ(s->subgroupLanes, 48u); // 32 + 16
    EXPECT_EQ(s->divergentRequests, 0u);
    EXPECT_EQ(s->sectors, 6u); // 4 + 2
    EXPECT_EQ(s->neededSectors, 6u);
    EXPECT_TRUE(r.lines.empty());
}

TEST(Efficiency, LoopWithFewerIterationsInSomeLanesDivergesOnLaterExecutions) {
    TraceBuilder b({32, 1, 1});
    uint32_t a = b.buffer("a", 4096);
    for (uint32_t i = 0; i < 32; ++i)
        for (uint32_t k = 0; k < (i < 8 ? 2u : 1u); ++k)
            b.read(i, a, k * 32 + i, 9);
    EfficiencyReport r = analyzeEfficiency(b.t);
    const SiteEfficiency* s = siteAt(r, 9);
    EXPECT_EQ(s->requests, 2u);
    EXPECT_EQ(s->divergentRequests, 1u);
    EXPECT_EQ(s->activeLanes, 40u);
}

// A subgroup per row, two 8-lane subgroups in one modelled subgroup of 16 (spmv-subgroup's
// kernel with 16 threads): lanes 0-7 take rows 0, 2, 4, 6 and lanes 8-15 rows 1, 3, 5, 7, each
// lane reading rowptr[r] and rowptr[r + 1] (every lane as often: where the lanes meet), then
// striding over the row's values. Rows have different lengths, so a lane's k-th read of vals is
// in different rows for different lanes; the requests are counted again from each rowptr read,
// so each pairs rows 2j and 2j + 1 (neighbours in memory) instead of a row's last reads with the
// next row's first. The pairs' requests: rows 0 and 1, 2 sectors (needed 2) and 1 (1); rows 2
// and 3, 2 (2); rows 4 and 5, 2 (2); rows 6 and 7, 3 (2) and 2 (2: lanes 0 to 14 span 60
// bytes), row 6's ninth value sitting between them: 12 sectors where 11 would do. Paired by
// count alone, 16.
TEST(Efficiency, LanesMeetAgainWhereTheyAllRunASiteAsOften) {
    const std::vector<uint32_t> rowptr = {0, 8, 18, 24, 31, 37, 40, 49, 64};
    TraceBuilder b({16, 1, 1});
    uint32_t ptr = b.buffer("rowptr", 9), vals = b.buffer("vals", 64);
    std::map<uint32_t, size_t> firstReadOfRow2; // lane -> event index (lanes 0-7)
    for (uint32_t lane = 0; lane < 16; ++lane)
        for (uint32_t step = 0; step < 4; ++step) {
            uint32_t row = 2 * step + lane / 8;
            b.read(lane, ptr, row, 10).read(lane, ptr, row + 1, 11);
            for (uint32_t e = rowptr[row] + lane % 8; e < rowptr[row + 1]; e += 8) {
                if (row == 2 && !firstReadOfRow2.count(lane))
                    firstReadOfRow2[lane] = b.t.threads[lane].size();
                b.read(lane, vals, e, 12);
            }
        }
    EfficiencyReport r = analyzeEfficiency(b.t);
    const SiteEfficiency* s = siteAt(r, 12);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->sectors, 12u);
    EXPECT_EQ(s->neededSectors, 11u);
    auto req = requestOf(b.t, MemoryModel{}, 0, firstReadOfRow2.at(0));
    ASSERT_TRUE(req);
    for (uint32_t index : req->indices)
        EXPECT_TRUE(index >= rowptr[2] && index < rowptr[4])
            << "row 2's first reads meet row 3's, not row 1's last: vals[" << index << "]";
    EXPECT_EQ(req->lanes.size(), 13u) << "row 2's 6 values and row 3's 7";
}

TEST(Efficiency, TheDivergenceSentenceQuotesTheConditionThatSplitsTheLanes) {
    TraceBuilder b({64, 1, 1});
    uint32_t a = b.buffer("a", 64);
    for (uint32_t i = 0; i < 64; ++i)
        if (i % 2 == 0) b.write(i, a, i / 2, 1, 4);
    b.t.source = "void main() {\n"                          // 1
                 "    uint tid = gl_LocalInvocationID.x;\n" // 2
                 "    if (tid % 2u == 0u) {\n"              // 3
                 "        a[tid / 2u] = 1u;\n"              // 4
                 "    }\n"
                 "}\n";
    EfficiencyReport r = analyzeEfficiency(b.t);
    const LineEfficiency* l = lineAt(r, 4);
    ASSERT_TRUE(l);
    EXPECT_EQ(l->sentence, "half the lanes idle at line 4: the condition tid % 2u == 0u (the if at "
                           "line 3) splits every subgroup that gets there (2 of 2 requests ran "
                           "with only some lanes, e.g. lanes 0, 2, 4\u2026 of subgroup 0)");
    // Without the kernel's text the figures are said without a condition.
    b.t.source.clear();
    r = analyzeEfficiency(b.t);
    l = lineAt(r, 4);
    ASSERT_TRUE(l);
    EXPECT_TRUE(contains(l->sentence, "2 of 2 requests ran with only some lanes of their subgroup"))
        << l->sentence;
}

// Matmul's naive read: every thread of a row of the workgroup reads the same element of b's
// column, each row from another subgroup.
TEST(Efficiency, AnElementReadBySeveralSubgroupsOfAWorkgroupIsATileHint) {
    TraceBuilder b({32, 4, 1}, {2, 1, 1}); // 4 subgroups of 32 lanes per workgroup, 2 workgroups
    uint32_t m = b.buffer("b", 64);
    uint32_t out = b.buffer("out", 256);
    for (uint64_t inv = 0; inv < 256; ++inv) {
        uint32_t x = uint32_t(inv % 32), g = uint32_t(inv / 128);
        b.read(inv, m, g * 32 + x, 7); // the same 32 elements in each row: 4 fetches
        b.write(inv, out, uint32_t(inv), 1, 9);
    }
    EfficiencyReport r = analyzeEfficiency(b.t);
    const SiteEfficiency* s = siteAt(r, 7);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->mostSubgroupsOnOne, 4u);
    EXPECT_EQ(s->workgroupRefetches, 2u * 32u * 3u); // per workgroup 32 elements, 3 extra each
    EXPECT_EQ(s->repeatedReads, 0u);                 // no thread read one twice
    const LineEfficiency* l = lineAt(r, 7);
    ASSERT_TRUE(l);
    EXPECT_EQ(l->cost, CostKind::Minor);
    EXPECT_EQ(l->badge, "4x per workgroup");
    EXPECT_TRUE(contains(l->sentence, "is read by 4 subgroups of workgroup 0 at this line (192 "
                                      "reads here fetch an element another subgroup"))
        << l->sentence;
    EXPECT_EQ(r.globalReads, 256u);
    EXPECT_EQ(r.sharedReads, 0u);
    EXPECT_EQ(r.cellsWritten, 256u);
    EXPECT_FALSE(lineAt(r, 9)); // the writes are fine
}

TEST(Efficiency, OneRequestReadingOneAddressIsABroadcastNotARefetch) {
    TraceBuilder b({64, 1, 1});
    uint32_t a = b.buffer("a", 4);
    for (uint32_t i = 0; i < 32; ++i)
        b.read(i, a, 0, 5); // one subgroup: a broadcast
    for (uint32_t i = 32; i < 64; ++i)
        b.read(i, a, 1, 5); // the other subgroup, another element
    EfficiencyReport r = analyzeEfficiency(b.t);
    EXPECT_EQ(siteAt(r, 5)->workgroupRefetches, 0u);
    EXPECT_EQ(siteAt(r, 5)->mostSubgroupsOnOne, 0u);
    EXPECT_FALSE(lineAt(r, 5));
}

TEST(Efficiency, ReadsPerCellCountBufferAndSharedReadsAndDistinctCellsWritten) {
    TraceBuilder b({4, 1, 1});
    uint32_t a = b.buffer("a", 8);
    uint32_t tile = b.shared("tile", {4});
    uint32_t out = b.buffer("out", 4);
    for (uint32_t i = 0; i < 4; ++i) {
        b.read(i, a, 2 * i, 3).read(i, a, 2 * i + 1, 3);
        b.read(i, tile, i, 4).read(i, tile, (i + 1) % 4, 4);
        b.write(i, out, i / 2, 1, 5); // two threads write each of 2 cells
    }
    EfficiencyReport r = analyzeEfficiency(b.t);
    EXPECT_EQ(r.globalReads, 8u);
    EXPECT_EQ(r.sharedReads, 8u);
    EXPECT_EQ(r.cellsWritten, 2u);
}

TEST(Efficiency, RepeatedReadsOfOnesOwnElement) {
    TraceBuilder b({32, 1, 1});
    uint32_t a = b.buffer("a", 32);
    for (uint32_t i = 0; i < 32; ++i)
        for (int k = 0; k < 3; ++k)
            b.read(i, a, i, 7);
    b.read(0, a, 1, 8); // another thread's element: not a repeat
    EfficiencyReport r = analyzeEfficiency(b.t);
    EXPECT_EQ(siteAt(r, 7)->repeatedReads, 64u); // 2 per thread
    EXPECT_EQ(siteAt(r, 8)->repeatedReads, 0u);
    const LineEfficiency* l = lineAt(r, 7);
    ASSERT_TRUE(l);
    EXPECT_EQ(l->badge, "3x re-read");
    EXPECT_TRUE(contains(l->sentence, "a thread reads a[")) << l->sentence;
    EXPECT_TRUE(contains(l->sentence, " 3 times")) << l->sentence;
}

TEST(Efficiency, AtomicsOnOneAddressAndPerWorkgroup) {
    TraceBuilder b({32, 1, 1}, {2, 1, 1});
    uint32_t hist = b.buffer("hist", 16);
    uint32_t bins = b.shared("bins", {16});
    for (uint32_t i = 0; i < 64; ++i) {
        b.atomic(i, hist, 5, 30);
        if (i < 32) b.atomic(i, hist, i % 16, 31); // two lanes per address, workgroup 0
        b.atomic(i, bins, i % 4, 32);              // shared: not counted as global
    }
    EfficiencyReport r = analyzeEfficiency(b.t);
    EXPECT_EQ(siteAt(r, 30)->worstAtomicsPerAddress, 32u);
    EXPECT_EQ(siteAt(r, 31)->worstAtomicsPerAddress, 2u);
    EXPECT_EQ(siteAt(r, 32)->worstAtomicsPerAddress, 8u);
    EXPECT_EQ(r.mostGlobalAtomics, 64u); // workgroup 0: 32 + 32
    EXPECT_EQ(r.mostAtomicsWorkgroup, 0u);
    const LineEfficiency* l = lineAt(r, 30);
    ASSERT_TRUE(l);
    EXPECT_EQ(l->cost, CostKind::Severe);
    EXPECT_EQ(l->sentence, "32 lanes of one request update the same address hist[5] "
                           "atomically: the updates run one after another");
    EXPECT_EQ(r.lines.front().line, 30u); // the most costly first
}

TEST(Efficiency, LinesMostCostlyFirst) {
    TraceBuilder b({32, 1, 1});
    uint32_t a = b.buffer("a", 4096);
    uint32_t s = b.shared("s", {1024});
    for (uint32_t i = 0; i < 32; ++i) {
        b.read(i, a, i * 2, 1);     // 2x sectors
        b.read(i, a, i * 32, 2);    // 8x sectors
        b.write(i, s, i * 2, 0, 3); // 2-way
    }
    EfficiencyReport r = analyzeEfficiency(b.t);
    ASSERT_EQ(r.lines.size(), 3u);
    EXPECT_EQ(r.lines[0].line, 2u);
    EXPECT_EQ(r.lines[1].line, 1u);
    EXPECT_EQ(r.lines[2].line, 3u);
}

TEST(Efficiency, RequestOfNamesTheSameExecutionOfTheOtherLanes) {
    TraceBuilder b({64, 1, 1});
    uint32_t a = b.buffer("a", 4096);
    for (uint32_t i = 0; i < 64; ++i) {
        b.barrier(i);
        for (uint32_t k = 0; k < 2; ++k)
            if (k == 0 || i % 4 == 0) b.read(i, a, k * 1000 + i, 12);
    }
    // Thread 36 (subgroup 1, lane 4): its events are barrier, read (k 0), read (k 1).
    auto r = requestOf(b.t, MemoryModel{}, 36, 2);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->workgroup, 0u);
    EXPECT_EQ(r->subgroup, 1u);
    EXPECT_EQ(r->execution, 1u);
    EXPECT_EQ(r->lanes, (std::vector<uint32_t>{0, 4, 8, 12, 16, 20, 24, 28}));
    EXPECT_EQ(r->indices.front(), 1032u);
    EXPECT_EQ(r->indices.back(), 1060u);
    EXPECT_FALSE(requestOf(b.t, MemoryModel{}, 36, 0));  // a barrier
    EXPECT_FALSE(requestOf(b.t, MemoryModel{}, 36, 9));  // past its events
    EXPECT_FALSE(requestOf(b.t, MemoryModel{}, 640, 0)); // past the threads
}

// Clicking any scalar of a vector access shows the whole request: every lane's four words of
// that execution, judged a phase at a time as the report judges it.
TEST(Efficiency, RequestOfAVectorScalarIsTheWholeVectorRequest) {
    TraceBuilder b({32, 1, 1});
    uint32_t s = b.shared("tile", {512});
    b.t.variables[s].decl.elementWidth = 4;
    for (uint32_t i = 0; i < 32; ++i)
        b.readVector(i, s, 4 * i, 4, 20).readVector(i, s, 128 + 4 * i, 4, 20);
    auto r = requestOf(b.t, MemoryModel{}, 3, 5); // thread 3's second vec4, its .y
    ASSERT_TRUE(r);
    EXPECT_EQ(r->execution, 1u);
    ASSERT_EQ(r->lanes.size(), 128u);
    EXPECT_EQ(r->activeLanes().size(), 32u);
    EXPECT_EQ(r->indices.front(), 128u);
    EXPECT_EQ(r->indices.back(), 255u);
    EXPECT_EQ(requestBanks(MemoryModel{}, *r).ways, 1u);
    EXPECT_EQ(analyzeEfficiency(b.t).sites.at(0).requests, 2u);

    // The same words as scalar loads: clicking one shows its own 32-lane request, 4-way.
    TraceBuilder scalar({32, 1, 1});
    uint32_t t = scalar.shared("tile", {512});
    for (uint32_t i = 0; i < 32; ++i)
        for (uint32_t k = 0; k < 4; ++k)
            scalar.read(i, t, 4 * i + k, 20);
    auto one = requestOf(scalar.t, MemoryModel{}, 3, 1);
    ASSERT_TRUE(one);
    EXPECT_EQ(one->lanes.size(), 32u);
    EXPECT_EQ(requestBanks(MemoryModel{}, *one).ways, 4u);
}

TEST(Efficiency, WorstRequestIsKept) {
    TraceBuilder b({32, 1, 1});
    uint32_t a = b.buffer("a", 8192);
    for (uint32_t i = 0; i < 32; ++i) {
        b.read(i, a, i, 4);
        b.read(i, a, 64 * i, 4); // the same site's second execution, scattered
    }
    EfficiencyReport r = analyzeEfficiency(b.t);
    const SiteEfficiency* s = siteAt(r, 4);
    EXPECT_EQ(s->worst.execution, 1u);
    EXPECT_EQ(s->worst.indices.at(1), 64u);
    EXPECT_TRUE(contains(lineAt(r, 4)->sentence, "256 bytes apart"));
}

} // namespace
} // namespace vkp
