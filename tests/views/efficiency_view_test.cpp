// What the views draw of the efficiency lens: a request's cells with the sectors it touched or the
// bank of each word, the site that stands for a line, and the words for a case without figures.
// Hand-built requests on synthetic traces (judge/efficiency's own tests check the figures).
#include <gtest/gtest.h>

#include "support/trace_builder.h"
#include "views/efficiency_view.h"

namespace vkp::views {
namespace {

ShownRequest request(uint32_t var, std::vector<uint32_t> indices, uint32_t line = 7,
                     TraceEventKind kind = TraceEventKind::Read) {
    ShownRequest r;
    r.site = SiteKey{line, var, kind};
    for (uint32_t lane = 0; lane < indices.size(); ++lane)
        r.example.lanes.push_back(lane);
    r.example.indices = std::move(indices);
    return r;
}

TEST(EfficiencyView, BanksAndSectorsFollowTheModel) {
    MemoryModel model;
    EXPECT_EQ(bankOf(model, 0), 0u);
    EXPECT_EQ(bankOf(model, 31), 31u);
    EXPECT_EQ(bankOf(model, 32), 0u);
    EXPECT_EQ(bankOf(model, 37), 5u);
    EXPECT_EQ(elementsPerSector(model), 8u);
    model.sectorBytes = 64;
    EXPECT_EQ(elementsPerSector(model), 16u);
}

TEST(EfficiencyView, AStridedGlobalRequestTouchesASectorPerLane) {
    test::TraceBuilder b({32, 1, 1});
    uint32_t a = b.buffer("a", 32 * 32);
    std::vector<uint32_t> strided;
    for (uint32_t lane = 0; lane < 32; ++lane)
        strided.push_back(lane * 32); // 128 bytes apart
    auto cells = requestCells(b.t, MemoryModel{}, request(a, strided));
    ASSERT_TRUE(cells);
    EXPECT_FALSE(cells->shared);
    EXPECT_EQ(cells->lanes.size(), 32u);
    EXPECT_EQ(cells->sectors.size(), 32u);
    EXPECT_EQ(cells->neededSectors, 4u);
    EXPECT_TRUE(cells->contains(CellRef::buffer(0, 64)));
    EXPECT_FALSE(cells->contains(CellRef::buffer(0, 65)));
    EXPECT_TRUE(cells->inSector(CellRef::buffer(0, 65)));  // same sector as 64
    EXPECT_FALSE(cells->inSector(CellRef::buffer(0, 72))); // the next sector: not touched
    EXPECT_NE(cells->summary.find("lanes 0-31"), std::string::npos) << cells->summary;
    EXPECT_NE(cells->summary.find("32 sectors touched, 4 needed"), std::string::npos)
        << cells->summary;
}

TEST(EfficiencyView, AMisalignedContiguousRequestNeedsWhatItTouches) {
    test::TraceBuilder b({32, 1, 1});
    uint32_t a = b.buffer("a", 64);
    std::vector<uint32_t> shifted;
    for (uint32_t lane = 0; lane < 32; ++lane)
        shifted.push_back(lane + 3);
    auto cells = requestCells(b.t, MemoryModel{}, request(a, shifted));
    ASSERT_TRUE(cells);
    EXPECT_EQ(cells->sectors.size(), 5u);
    EXPECT_EQ(cells->neededSectors, 5u);
}

TEST(EfficiencyView, ASharedColumnReadIsAConflictOnOneBank) {
    test::TraceBuilder b({32, 1, 1}, {2, 1, 1});
    uint32_t tile = b.shared("tile", {32, 32});
    std::vector<uint32_t> column;
    for (uint32_t lane = 0; lane < 8; ++lane)
        column.push_back(lane * 32 + 3); // tile[lane][3]: bank 3 every time
    ShownRequest r = request(tile, column);
    r.example.workgroup = 1;
    auto cells = requestCells(b.t, MemoryModel{}, r);
    ASSERT_TRUE(cells);
    EXPECT_TRUE(cells->shared);
    EXPECT_EQ(cells->ways, 8u);
    EXPECT_TRUE(cells->contains(CellRef::sharedCell(tile, 1, 35)));
    EXPECT_FALSE(cells->contains(CellRef::sharedCell(tile, 0, 35))); // another workgroup's copy
    EXPECT_FALSE(cells->inSector(CellRef::sharedCell(tile, 1, 36))); // no sectors in shared
    EXPECT_NE(cells->summary.find("8-way bank conflict (bank 3"), std::string::npos)
        << cells->summary;
}

TEST(EfficiencyView, ABroadcastIsNoConflict) {
    test::TraceBuilder b({32, 1, 1});
    uint32_t tile = b.shared("tile", {64});
    auto cells = requestCells(b.t, MemoryModel{}, request(tile, std::vector<uint32_t>(32, 5)));
    ASSERT_TRUE(cells);
    EXPECT_EQ(cells->ways, 1u);
    EXPECT_EQ(cells->lanes.at(5).size(), 32u);
    EXPECT_NE(cells->summary.find("no bank conflict"), std::string::npos) << cells->summary;
}

TEST(EfficiencyView, AVariableOutsideThePuzzleHasNoCells) {
    test::TraceBuilder b({32, 1, 1});
    uint32_t a = b.buffer("a", 32);
    b.t.variables[a].puzzleBuffer = -1;
    EXPECT_FALSE(requestCells(b.t, MemoryModel{}, request(a, {0, 1})));
    EXPECT_FALSE(requestCells(b.t, MemoryModel{}, request(99, {0, 1})));
}

TEST(EfficiencyView, ALineIsShownByItsWorstSite) {
    EfficiencyReport report;
    report.sites.resize(3);
    report.sites[0].worstEfficiency = 0.5;
    report.sites[1].worstEfficiency = 0.125;
    report.sites[2].worstWays = 8;
    LineEfficiency line;
    line.sites = {0, 1, 2};
    EXPECT_EQ(worstSiteOf(report, line), 1u);
    line.sites = {0, 2};
    EXPECT_EQ(worstSiteOf(report, line), 0u); // a global ratio outranks a conflict
    line.sites = {2};
    EXPECT_EQ(worstSiteOf(report, line), 2u);
    line.sites = {};
    EXPECT_FALSE(worstSiteOf(report, line));
    line.sites = {7}; // out of range: ignored
    EXPECT_FALSE(worstSiteOf(report, line));
}

TEST(EfficiencyView, ACaseWithoutFiguresSaysWhy) {
    EfficiencyReport none, some;
    some.lines.push_back(LineEfficiency{7, CostKind::Severe, "4.0x sectors", "...", 3, {}});
    EXPECT_NE(efficiencyAbsence(false, false, nullptr).find("Not run"), std::string::npos);
    EXPECT_NE(efficiencyAbsence(true, false, nullptr).find("Not traced"), std::string::npos);
    EXPECT_NE(efficiencyAbsence(true, true, &none).find("Nothing to improve"), std::string::npos);
    EXPECT_EQ(efficiencyAbsence(true, true, &some), "");
    EXPECT_NE(modelSentence(MemoryModel{}).find("32 lanes, 32-byte sectors, 32 banks of 4 bytes"),
              std::string::npos);
    EXPECT_NE(modelSentence(MemoryModel{}).find("whatever device runs the kernel"),
              std::string::npos);
}

} // namespace
} // namespace vkp::views
