// The look of buffer cells and thread squares: every branch of the pure styling, on a palette
// whose colours all differ so that each one says which branch chose it.
#include <gtest/gtest.h>

#include "widgets/cell_style.h"

namespace vkp::ui {
namespace {

Palette distinctPalette() {
    Palette p{};
    p.text = 1, p.dimText = 2, p.accent = 3, p.fail = 4, p.cellBg = 5, p.cellWrongBg = 6,
    p.cellWrongText = 7;
    p.cellLinkedBg = 8, p.cellWritten = 9, p.cellChangedBg = 10, p.stepOutline = 11, p.focus = 12;
    p.threadBg[0] = 13, p.threadBg[1] = 14, p.threadIdle = 15, p.threadLinked = 16,
    p.threadFinding = 17;
    p.requestCell = 18, p.sectorLine = 19;
    return p;
}

const Palette kPal = distinctPalette();

TEST(OrdersTextTest, ShowsAtMostTwoOrderNumbers) {
    EXPECT_EQ(ordersText({}), "");
    EXPECT_EQ(ordersText({3}), "3");
    EXPECT_EQ(ordersText({3, 7}), "3,7");
    EXPECT_EQ(ordersText({3, 7, 9}), "3,7+");
}

TEST(BufferCellStyleTest, PlainCellShowsItsValue) {
    BufferCellFacts f;
    f.value = "42";
    BufferCellStyle s = bufferCellStyle(f, kPal);
    EXPECT_EQ(s.background, kPal.cellBg);
    EXPECT_TRUE(s.outlines.empty());
    EXPECT_EQ(s.text, "42");
    EXPECT_EQ(s.textColour, kPal.text);
    EXPECT_EQ(s.orders, "");
}

TEST(BufferCellStyleTest, WrongOutweighsChangedWhichOutweighsRead) {
    BufferCellFacts f;
    f.value = "1";
    f.read = true;
    EXPECT_EQ(bufferCellStyle(f, kPal).background, kPal.cellLinkedBg);
    f.changed = true;
    EXPECT_EQ(bufferCellStyle(f, kPal).background, kPal.cellChangedBg);
    f.wrong = true;
    BufferCellStyle s = bufferCellStyle(f, kPal);
    EXPECT_EQ(s.background, kPal.cellWrongBg);
    EXPECT_EQ(s.textColour, kPal.cellWrongText);
}

TEST(BufferCellStyleTest, UnwrittenCellShowsADimDotUnlessWrong) {
    BufferCellFacts f;
    f.value = "0";
    f.unwritten = true;
    BufferCellStyle s = bufferCellStyle(f, kPal);
    EXPECT_EQ(s.text, "\xC2\xB7");
    EXPECT_EQ(s.textColour, kPal.dimText);
    f.wrong = true;
    EXPECT_EQ(bufferCellStyle(f, kPal).textColour, kPal.cellWrongText);
}

TEST(BufferCellStyleTest, EveryMarkAddsItsOutlineInDrawingOrder) {
    BufferCellFacts f;
    f.read = f.written = f.focused = f.step = f.selected = f.hovered = true;
    std::vector<CellOutline> want{{kPal.accent, 0, 2, 1.5f}, {kPal.cellWritten, 0, 2, 2.5f},
                                  {kPal.focus, 1, 3, 2.5f},  {kPal.stepOutline, 0, 2, 3.0f},
                                  {kPal.text, 2, 3, 2.0f},   {kPal.text, 0, 2, 1.5f}};
    EXPECT_EQ(bufferCellStyle(f, kPal).outlines, want);
}

TEST(BufferCellStyleTest, EachMarkAloneGivesOneOutline) {
    const std::vector<std::pair<bool BufferCellFacts::*, CellOutline>> marks{
        {&BufferCellFacts::read, {kPal.accent, 0, 2, 1.5f}},
        {&BufferCellFacts::written, {kPal.cellWritten, 0, 2, 2.5f}},
        {&BufferCellFacts::focused, {kPal.focus, 1, 3, 2.5f}},
        {&BufferCellFacts::step, {kPal.stepOutline, 0, 2, 3.0f}},
        {&BufferCellFacts::selected, {kPal.text, 2, 3, 2.0f}},
        {&BufferCellFacts::hovered, {kPal.text, 0, 2, 1.5f}}};
    for (const auto& [flag, outline] : marks) {
        BufferCellFacts f;
        f.*flag = true;
        EXPECT_EQ(bufferCellStyle(f, kPal).outlines, std::vector<CellOutline>{outline});
    }
}

TEST(BufferCellStyleTest, OrderNumbersTakeTheWriteColourWhenWritten) {
    std::vector<uint32_t> orders{2, 5, 8};
    BufferCellFacts f;
    f.orders = &orders;
    BufferCellStyle s = bufferCellStyle(f, kPal);
    EXPECT_EQ(s.orders, "2,5+");
    EXPECT_EQ(s.ordersColour, kPal.text);
    f.ordersWritten = true;
    EXPECT_EQ(bufferCellStyle(f, kPal).ordersColour, kPal.cellWritten);
}

TEST(ThreadLabelTest, OneOrTwoCoordinates) {
    EXPECT_EQ(threadLabel(12, 7, 1), "12");
    EXPECT_EQ(threadLabel(12, 7, 2), "12,7");
    EXPECT_EQ(threadLabel(12, 7, 3), "12,7");
}

TEST(ThreadCellStyleTest, PlainThreadIsShadedBySubgroup) {
    ThreadCellFacts f;
    f.cell = 20;
    ThreadCellStyle s = threadCellStyle(f, kPal);
    EXPECT_EQ(s.background, kPal.threadBg[0]);
    EXPECT_EQ(s.rounding, 2.0f);
    EXPECT_TRUE(s.under.empty());
    EXPECT_TRUE(s.over.empty());
    EXPECT_FALSE(s.corner);
    EXPECT_EQ(s.textKind, ThreadText::None);
    f.subgroupParity = 1;
    EXPECT_EQ(threadCellStyle(f, kPal).background, kPal.threadBg[1]);
}

TEST(ThreadCellStyleTest, SmallSquaresAreNotRounded) {
    ThreadCellFacts f;
    f.cell = 12;
    EXPECT_EQ(threadCellStyle(f, kPal).rounding, 0.0f);
}

TEST(ThreadCellStyleTest, LinkedOutweighsSpare) {
    ThreadCellFacts f;
    f.spare = true;
    EXPECT_EQ(threadCellStyle(f, kPal).background, kPal.threadIdle);
    f.linked = true;
    EXPECT_EQ(threadCellStyle(f, kPal).background, kPal.threadLinked);
}

TEST(ThreadCellStyleTest, MarksUnderAndOverTheCorner) {
    ThreadCellFacts f;
    f.cell = 20;
    f.flagged = f.focused = f.overLimit = f.selected = f.hovered = true;
    ThreadCellStyle s = threadCellStyle(f, kPal);
    EXPECT_EQ(s.under, (std::vector<CellOutline>{{kPal.threadFinding, 0, 2, 2.0f},
                                                 {kPal.focus, 1, 2, 2.5f}}));
    EXPECT_EQ(s.over,
              (std::vector<CellOutline>{{kPal.accent, 1, 2, 3.0f}, {kPal.text, 0, 2, 1.5f}}));
    EXPECT_TRUE(s.corner);
    EXPECT_EQ(s.cornerColour, kPal.fail);
    EXPECT_EQ(s.cornerSize, 7.0f);
}

TEST(ThreadCellStyleTest, EachMarkAloneGivesOneOutline) {
    ThreadCellFacts f;
    f.flagged = true;
    EXPECT_EQ(threadCellStyle(f, kPal).under,
              (std::vector<CellOutline>{{kPal.threadFinding, 0, 2, 2.0f}}));
    f = {};
    f.focused = true;
    EXPECT_EQ(threadCellStyle(f, kPal).under, (std::vector<CellOutline>{{kPal.focus, 1, 2, 2.5f}}));
    f = {};
    f.selected = true;
    EXPECT_EQ(threadCellStyle(f, kPal).over, (std::vector<CellOutline>{{kPal.accent, 1, 2, 3.0f}}));
    f = {};
    f.hovered = true;
    EXPECT_EQ(threadCellStyle(f, kPal).over, (std::vector<CellOutline>{{kPal.text, 0, 2, 1.5f}}));
}

TEST(CellStyleTest, PresenterEmphasisThickensTheSelectionOnly) {
    ThreadCellFacts t;
    t.selected = true;
    t.emphasis = kPresenterEmphasis;
    EXPECT_EQ(threadCellStyle(t, kPal).over, (std::vector<CellOutline>{{kPal.accent, 3, 2, 9.0f}}));
    t.selected = false;
    t.hovered = true;
    EXPECT_EQ(threadCellStyle(t, kPal).over, (std::vector<CellOutline>{{kPal.text, 0, 2, 1.5f}}))
        << "the pointer's outline stays thin";
    BufferCellFacts b;
    b.written = b.selected = true;
    b.emphasis = kPresenterEmphasis;
    EXPECT_EQ(bufferCellStyle(b, kPal).outlines,
              (std::vector<CellOutline>{{kPal.cellWritten, 0, 2, 7.5f}, {kPal.text, 6, 3, 6.0f}}));
}

TEST(ThreadCellStyleTest, OverLimitCornerIsAtLeastFourPixels) {
    ThreadCellFacts f;
    f.overLimit = true;
    f.cell = 6;
    EXPECT_EQ(threadCellStyle(f, kPal).cornerSize, 4.0f);
}

TEST(ThreadCellStyleTest, OrderNumberWinsOverLabelWhenThereIsRoom) {
    ThreadCellFacts f;
    f.labelled = true;
    f.label = "3,1";
    f.order = 2;
    f.roomForOrder = true;
    ThreadCellStyle s = threadCellStyle(f, kPal);
    EXPECT_EQ(s.textKind, ThreadText::Order);
    EXPECT_EQ(s.text, "2");
    EXPECT_EQ(s.textColour, kPal.text);
    f.roomForOrder = false;
    s = threadCellStyle(f, kPal);
    EXPECT_EQ(s.textKind, ThreadText::Label);
    EXPECT_EQ(s.text, "3,1");
    EXPECT_EQ(s.textColour, kPal.text);
}

TEST(ThreadCellStyleTest, OrderWithoutRoomOrLabelShowsNothing) {
    ThreadCellFacts f;
    f.order = 4;
    EXPECT_EQ(threadCellStyle(f, kPal).textKind, ThreadText::None);
}

TEST(ThreadCellStyleTest, SpareThreadsLabelIsDim) {
    ThreadCellFacts f;
    f.labelled = true;
    f.label = "9";
    f.spare = true;
    ThreadCellStyle s = threadCellStyle(f, kPal);
    EXPECT_EQ(s.textKind, ThreadText::Label);
    EXPECT_EQ(s.textColour, kPal.dimText);
}

// The efficiency lens's request: its cells in their own colour with an outline, above a read;
// the rest of a sector it touched tinted, below a read.
TEST(BufferCellStyleTest, RequestCellsAndTheirSectorsHaveTheirOwnLook) {
    BufferCellFacts f;
    f.inRequest = true;
    BufferCellStyle s = bufferCellStyle(f, kPal);
    EXPECT_EQ(s.background, kPal.requestCell);
    ASSERT_EQ(s.outlines.size(), 1u);
    EXPECT_EQ(s.outlines[0].colour, kPal.sectorLine);
    f.read = true;
    EXPECT_EQ(bufferCellStyle(f, kPal).background, kPal.requestCell);
    f.wrong = true;
    EXPECT_EQ(bufferCellStyle(f, kPal).background, kPal.cellWrongBg);
    BufferCellFacts sector;
    sector.inSector = true;
    EXPECT_EQ(bufferCellStyle(sector, kPal).background, withAlpha(kPal.sectorLine, 0.25f));
    EXPECT_TRUE(bufferCellStyle(sector, kPal).outlines.empty());
    sector.read = true;
    EXPECT_EQ(bufferCellStyle(sector, kPal).background, kPal.cellLinkedBg);
}

} // namespace
} // namespace vkp::ui
