// The arithmetic of presentation: where the panels go at large text sizes, one maximised, tab
// labels that fit, and a thread grid that keeps readable squares.
#include <gtest/gtest.h>

#include <numeric>
#include <string_view>

#include "panels/thread_grid_panel.h"
#include "ui/panel_layout.h"
#include "widgets/widgets.h"

namespace vkp::ui {
namespace {

const PanelBox kArea{0, 30, 1280, 760};

TEST(PanelLayoutTest, PanelsTileTheAreaWithoutOverlap) {
    PanelArrangement a = arrangePanels(LayoutSettings{}, kArea, 5, 16);
    EXPECT_FALSE(a.browserCompact) << "at 100% on 1280 wide the list shows its titles";
    for (size_t i = 0; i < kPanelCount; ++i) {
        EXPECT_FALSE(a.panels[i].empty()) << panelName(static_cast<PanelKind>(i));
        for (size_t j = i + 1; j < kPanelCount; ++j) {
            const PanelBox &p = a.panels[i], &q = a.panels[j];
            bool apart = p.x1 <= q.x0 || q.x1 <= p.x0 || p.y1 <= q.y0 || q.y1 <= p.y0;
            EXPECT_TRUE(apart) << panelName(static_cast<PanelKind>(i)) << " overlaps "
                               << panelName(static_cast<PanelKind>(j));
        }
    }
    EXPECT_EQ(a[PanelKind::Editor].x1, kArea.x1);
    EXPECT_EQ(a[PanelKind::Threads].x1, kArea.x1);
    EXPECT_EQ(a[PanelKind::Threads].y1, kArea.y1);
}

TEST(PanelLayoutTest, ALargeTextSizeMakesTheBrowserCompactAndGivesItsWidthToTheEditorRow) {
    PanelArrangement normal = arrangePanels(LayoutSettings{}, kArea, 5, 16);
    PanelArrangement large = arrangePanels(LayoutSettings{}, kArea, 10, 32); // 200%
    ASSERT_TRUE(large.browserCompact);
    EXPECT_LE(large[PanelKind::Browser].width(), kBrowserCompactEms * 32);
    EXPECT_GT(large[PanelKind::Side].width() + large[PanelKind::Editor].width(),
              normal[PanelKind::Side].width() + normal[PanelKind::Editor].width());
    // Dragging the divider right widens it back to a readable list.
    LayoutSettings wider;
    wider.browserWidth = large.browserExpandFraction;
    PanelArrangement back = arrangePanels(wider, kArea, 10, 32);
    EXPECT_FALSE(back.browserCompact);
    EXPECT_GE(back[PanelKind::Browser].width(), kBrowserReadableEms * 32);
}

TEST(PanelLayoutTest, AMaximisedPanelTakesTheWholeAreaAndThePointerFindsIt) {
    PanelArrangement all = arrangePanels(LayoutSettings{}, kArea, 5, 16);
    const PanelBox& grid = all[PanelKind::Threads];
    ASSERT_EQ(panelAt(all, (grid.x0 + grid.x1) / 2, (grid.y0 + grid.y1) / 2), PanelKind::Threads);
    EXPECT_EQ(panelAt(all, kArea.x1 + 10, kArea.y0), std::nullopt);
    PanelArrangement max = maximisePanel(PanelKind::Threads, kArea);
    EXPECT_TRUE(max.maximised);
    EXPECT_EQ(max[PanelKind::Threads].width(), kArea.width());
    EXPECT_EQ(max[PanelKind::Threads].height(), kArea.height());
    for (PanelKind k : {PanelKind::Browser, PanelKind::Side, PanelKind::Editor, PanelKind::Cases,
                        PanelKind::Memory})
        EXPECT_TRUE(max[k].empty());
    EXPECT_EQ(panelAt(max, kArea.x0 + 1, kArea.y0 + 1), PanelKind::Threads);
}

bool apart(const PanelBox& p, const PanelBox& q) {
    return p.empty() || q.empty() || p.x1 <= q.x0 || q.x1 <= p.x0 || p.y1 <= q.y0 || q.y1 <= p.y0;
}

void expectNoOverlap(const PanelArrangement& a) {
    for (size_t i = 0; i < kPanelCount; ++i)
        for (size_t j = i + 1; j < kPanelCount; ++j)
            EXPECT_TRUE(apart(a.panels[i], a.panels[j]))
                << panelName(static_cast<PanelKind>(i)) << " overlaps "
                << panelName(static_cast<PanelKind>(j));
}

const PanelBox kProjector{0, 40, 1920, 1010}; // 1920x1080 less the menu and status bars

TEST(PresenterLayoutTest, TheEditorGridAndBuffersTakeTheAreaAndTheRestIsFolded) {
    PanelArrangement a = arrangePresenter({}, false, kProjector, 12, 30, 900); // 200%
    EXPECT_TRUE(a[PanelKind::Browser].empty());
    EXPECT_TRUE(a[PanelKind::Side].empty());
    EXPECT_TRUE(a[PanelKind::Cases].empty());
    EXPECT_EQ(a[PanelKind::Editor].width(), kProjector.width()) << "the whole top row";
    EXPECT_NEAR(a[PanelKind::Editor].height(), kProjector.height() / 2, 12);
    EXPECT_EQ(a[PanelKind::Memory].x0, kProjector.x0);
    EXPECT_EQ(a[PanelKind::Threads].x1, kProjector.x1);
    EXPECT_EQ(a[PanelKind::Threads].y1, kProjector.y1);
    expectNoOverlap(a);
}

TEST(PresenterLayoutTest, AWalkthroughPutsTheSidePanelThatPlaysItOnTop) {
    PanelArrangement a = arrangePresenter({}, true, kProjector, 12, 30, 900);
    EXPECT_EQ(a[PanelKind::Side].width(), kProjector.width());
    EXPECT_TRUE(a[PanelKind::Editor].empty());
    EXPECT_FALSE(a[PanelKind::Memory].empty());
    EXPECT_FALSE(a[PanelKind::Threads].empty());
}

// A walkthrough step's text asks for more than half of a 1280x720 projector: the top row grows to
// what it asks, never past kPresenterTopMostShare, and the bottom row keeps its rows.
TEST(PresenterLayoutTest, TheTopRowGrowsToWhatItsPanelAsksForWithinBounds) {
    PanelBox small{0, 46, 1280, 664}; // 1280x720 less the menu and status bars at 200%
    float rows = small.height() - 12;
    PanelArrangement share = arrangePresenter({}, true, small, 12, 26, 900, 0);
    EXPECT_NEAR(share[PanelKind::Side].height(), rows / 2, 1) << "nothing asked: the share";
    PanelArrangement less = arrangePresenter({}, true, small, 12, 26, 900, 200);
    EXPECT_NEAR(less[PanelKind::Side].height(), rows / 2, 1) << "never less than the share";
    PanelArrangement more = arrangePresenter({}, true, small, 12, 26, 900, 380);
    EXPECT_EQ(more[PanelKind::Side].height(), 380);
    EXPECT_EQ(more[PanelKind::Memory].y0, small.y0 + 380 + 12);
    EXPECT_EQ(more[PanelKind::Threads].y1, small.y1);
    PanelArrangement all = arrangePresenter({}, true, small, 12, 26, 900, 5000);
    EXPECT_NEAR(all[PanelKind::Side].height(), rows * kPresenterTopMostShare, 1);
    EXPECT_GE(all[PanelKind::Memory].height(), kPresenterBottomEms * 26);
    expectNoOverlap(all);
    // On a tall screen the bottom row's rows are no bound: the share is.
    PanelArrangement tall = arrangePresenter({}, true, kProjector, 12, 30, 900, 5000);
    EXPECT_NEAR(tall[PanelKind::Side].height(), (kProjector.height() - 12) * kPresenterTopMostShare,
                1);
    // A column of unfolded panels grows with the row.
    PresenterFolds open;
    open.cases = true;
    PanelArrangement column = arrangePresenter(open, true, kProjector, 12, 30, 900, 600);
    EXPECT_EQ(column[PanelKind::Cases].y1, column[PanelKind::Side].y1);
    EXPECT_EQ(column[PanelKind::Side].height(), 600);
}

TEST(PresenterLayoutTest, UnfoldedPanelsStackInAReadableColumnOnTheLeft) {
    PresenterFolds open;
    open.browser = open.cases = true;
    PanelArrangement a = arrangePresenter(open, false, kProjector, 12, 30, 900);
    EXPECT_FALSE(a.columnOverAll);
    EXPECT_GE(a[PanelKind::Browser].width(), kPresenterColumnEms * 30) << "titles, not numbers";
    EXPECT_EQ(a[PanelKind::Cases].width(), a[PanelKind::Browser].width());
    EXPECT_LT(a[PanelKind::Browser].y1, a[PanelKind::Cases].y0);
    EXPECT_EQ(a[PanelKind::Editor].x1, kProjector.x1);
    EXPECT_GE(a[PanelKind::Editor].width(), kPresenterMainEms * 30);
    EXPECT_LT(a[PanelKind::Cases].y1, a[PanelKind::Memory].y0) << "the top row's column";
    EXPECT_EQ(a[PanelKind::Memory].x0, kProjector.x0) << "the grid and buffers keep their row";
    EXPECT_EQ(a[PanelKind::Threads].x1, kProjector.x1);
    expectNoOverlap(a);
}

TEST(PresenterLayoutTest, TheSideTabsGetTheirLabelsWholeOrTheWholeArea) {
    PresenterFolds open;
    open.side = true;
    PanelArrangement wide = arrangePresenter(open, false, kProjector, 12, 30, 900);
    EXPECT_GE(wide[PanelKind::Side].width(), 900) << "never squeezed into elided tabs";
    // 1280x720 at 200%: both cannot be readable, so the side panel alone, whole.
    PanelBox small{0, 40, 1280, 660};
    PanelArrangement narrow = arrangePresenter(open, false, small, 12, 30, 900);
    EXPECT_TRUE(narrow.columnOverAll);
    EXPECT_EQ(narrow[PanelKind::Side].width(), small.width());
    EXPECT_TRUE(narrow[PanelKind::Editor].empty());
    EXPECT_FALSE(narrow[PanelKind::Threads].empty()) << "the bottom row stays";
}

// Ten pixels a byte: easy to reason about.
float tenPerByte(std::string_view s) {
    return 10.0f * static_cast<float>(s.size());
}

TEST(FitLabelsTest, LabelsThatFitStayWhole) {
    std::vector<std::string> labels{"Statement", "Hints 0/3", "Solution", "Device"};
    EXPECT_EQ(fitLabels(labels, 1000, 20, tenPerByte), labels);
}

TEST(FitLabelsTest, LongLabelsShareWhatIsLeftAndEndInAnEllipsis) {
    std::vector<std::string> labels{"Statement", "Hints 0/3", "Solution", "Device"};
    float avail = 4 * 20 + 240; // the padding and 240 px of text: 60 each
    std::vector<std::string> shown = fitLabels(labels, avail, 20, tenPerByte);
    ASSERT_EQ(shown.size(), labels.size());
    float total = 0;
    for (size_t i = 0; i < shown.size(); ++i) {
        total += tenPerByte(shown[i]);
        if (shown[i] == labels[i]) continue;
        ASSERT_GE(shown[i].size(), 3u) << labels[i];
        EXPECT_EQ(shown[i].substr(shown[i].size() - 3), "\xE2\x80\xA6") << shown[i];
        EXPECT_EQ(labels[i].rfind(shown[i].substr(0, shown[i].size() - 3), 0), 0u)
            << shown[i] << " starts " << labels[i];
    }
    EXPECT_LE(total, 240);
    EXPECT_EQ(shown[3], "Device")
        << "the short label keeps its width; the long ones share the rest";
}

TEST(FitLabelsTest, WrapLinesBreaksAtSpacesAndCutsTheLastLineShown) {
    // 10 pixels a byte, 100 a line: "race: cache[6] in" is 17 bytes, too long; words stay whole.
    std::string f = "race: cache[6] in round 0: thread 6 writes it while thread 7 reads it";
    std::vector<std::string> all = wrapLinesWith(f, 100, 20, tenPerByte);
    std::string joined;
    for (const std::string& l : all) {
        EXPECT_LE(tenPerByte(l), 100) << l;
        EXPECT_NE(l.front(), ' ');
        joined += (joined.empty() ? "" : " ") + l;
    }
    EXPECT_EQ(joined, f) << "every word, in order, none cut";
    EXPECT_EQ(all.front(), "race:");
    // Three lines at most: the third ends in an ellipsis, since more follows.
    std::vector<std::string> three = wrapLinesWith(f, 100, 3, tenPerByte);
    ASSERT_EQ(three.size(), 3u);
    EXPECT_EQ(three[0], all[0]);
    EXPECT_EQ(three[1], all[1]);
    EXPECT_EQ(three[2].substr(three[2].size() - 3), "\xE2\x80\xA6");
    EXPECT_LE(tenPerByte(three[2]), 100);
    // A text that fits is one line, whole; a word longer than a line is a line of its own.
    EXPECT_EQ(wrapLinesWith("short", 100, 3, tenPerByte), std::vector<std::string>{"short"});
    EXPECT_EQ(wrapLinesWith("a verylongwordindeed b", 100, 5, tenPerByte),
              (std::vector<std::string>{"a", "verylongwordindeed", "b"}));
    EXPECT_TRUE(wrapLinesWith("", 100, 3, tenPerByte).empty());
}

TEST(FitLabelsTest, EllipsizeNeverCutsAUtf8Character) {
    std::string s = "Threads \xE2\x80\x94 case 5";
    for (float w = 0; w < 200; w += 5) {
        std::string e = ellipsizeWith(s, w, tenPerByte);
        EXPECT_LE(tenPerByte(e), std::max(w, 0.0f)) << e;
        if (e.empty() || e == s) continue;
        std::string head = e.substr(0, e.size() - 3);
        auto endsWith = [&](std::string_view tail) {
            return head.size() >= tail.size() &&
                   head.compare(head.size() - tail.size(), tail.size(), tail) == 0;
        };
        EXPECT_FALSE(endsWith("\xE2") || endsWith("\xE2\x80")) << "a cut inside the dash: " << e;
    }
}

TestCase launch(std::array<uint32_t, 3> wg, std::array<uint32_t, 3> n) {
    TestCase c;
    c.workgroupSize = wg;
    c.workgroups = n;
    return c;
}

TEST(ThreadGridLayoutTest, ASmallLaunchKeepsLabelledSquaresAndScrollsInAShortPanel) {
    TestCase c = launch({2, 2, 1}, {2, 2, 1}); // Matrix multiply's case 5
    float font = 32;                           // 200%
    ThreadGridLayout roomy = layoutThreads(c, 1200, 900, font, 26);
    EXPECT_GE(roomy.cell, labelledCell(font));
    ThreadGridLayout shortPanel =
        layoutThreads(c, 460, 60, font, 26); // a thread selected: the inspector below
    EXPECT_GE(shortPanel.cell, labelledCell(font)) << "never bars without labels";
    EXPECT_GT(shortPanel.size.y, 60) << "taller than the panel: it scrolls";
}

TEST(ThreadGridLayoutTest, AHugeLaunchShrinksToFit) {
    TestCase c = launch({256, 1, 1}, {64, 1, 1});
    ASSERT_GT(c.threadCount(), kLabelledThreads);
    ThreadGridLayout l = layoutThreads(c, 600, 400, 16, 13);
    EXPECT_LT(l.cell, labelledCell(16));
    EXPECT_GE(l.cell, 6);
}

} // namespace
} // namespace vkp::ui
