#include "ui/panel_layout.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace vkp::ui {

std::string_view panelName(PanelKind kind) {
    static constexpr std::string_view kNames[kPanelCount] = {"browser", "side",   "editor",
                                                             "cases",   "memory", "threads"};
    return kNames[static_cast<size_t>(kind)];
}

PanelArrangement arrangePanels(const LayoutSettings& l, PanelBox area, float split,
                               float fontSize) {
    PanelArrangement a;
    float w = area.width(), h = area.height();
    float topH = std::round((h - split) * l.topHeight), bottomH = h - split - topH;
    float rowW = std::max(1.0f, w - 2 * split);
    float browserW = std::round(rowW * l.browserWidth);
    a.browserExpandFraction = std::min(0.92f, (kBrowserReadableEms * fontSize + 1) / rowW);
    if (browserW < kBrowserReadableEms * fontSize) {
        a.browserCompact = true;
        browserW = std::min(browserW, std::round(kBrowserCompactEms * fontSize));
    }
    float restW = w - browserW - 2 * split;
    float statementW = std::round(restW * l.statementWidth);
    float y1 = area.y0 + topH, y2 = y1 + split;
    a[PanelKind::Browser] = {area.x0, area.y0, area.x0 + browserW, y1};
    a[PanelKind::Side] = {area.x0 + browserW + split, area.y0,
                          area.x0 + browserW + split + statementW, y1};
    a[PanelKind::Editor] = {area.x0 + browserW + statementW + 2 * split, area.y0, area.x1, y1};
    float casesW = std::round(rowW * l.casesWidth);
    float rest2 = w - casesW - 2 * split;
    float buffersW = std::round(rest2 * l.buffersWidth);
    a[PanelKind::Cases] = {area.x0, y2, area.x0 + casesW, y2 + bottomH};
    a[PanelKind::Memory] = {area.x0 + casesW + split, y2, area.x0 + casesW + split + buffersW,
                            y2 + bottomH};
    a[PanelKind::Threads] = {area.x0 + casesW + buffersW + 2 * split, y2, area.x1, y2 + bottomH};
    return a;
}

namespace {

// The unfolded panels stacked in the column from y0 to y1, sharing its height.
void stackColumn(PanelArrangement& a, const PresenterFolds& open, bool walkthrough, float x0,
                 float x1, float y0, float y1, float split) {
    std::vector<PanelKind> shown;
    if (open.browser) shown.push_back(PanelKind::Browser);
    if (open.side && !walkthrough) shown.push_back(PanelKind::Side);
    if (open.cases) shown.push_back(PanelKind::Cases);
    if (shown.empty()) return;
    float n = static_cast<float>(shown.size());
    float each = std::floor((y1 - y0 - split * (n - 1)) / n);
    for (size_t i = 0; i < shown.size(); ++i) {
        float top = y0 + static_cast<float>(i) * (each + split);
        a[shown[i]] = {x0, top, x1, i + 1 == shown.size() ? y1 : top + each};
    }
}

} // namespace

float presenterTopMost(PanelBox area, float split, float fontSize) {
    float rows = area.height() - split;
    return std::max(rows * kPresenterTopShare,
                    std::min(rows * kPresenterTopMostShare, rows - kPresenterBottomEms * fontSize));
}

PanelArrangement arrangePresenter(const PresenterFolds& open, bool walkthrough, PanelBox area,
                                  float split, float fontSize, float sideWidth, float topWanted) {
    PanelArrangement a;
    float rows = area.height() - split;
    float most = presenterTopMost(area, split, fontSize);
    float topH =
        std::round(std::max(rows * kPresenterTopShare, std::min(std::ceil(topWanted), most)));
    float y1 = area.y0 + topH, y2 = y1 + split;
    float half = std::round((area.width() - split) * 0.5f);
    a[PanelKind::Memory] = {area.x0, y2, area.x0 + half, area.y1};
    a[PanelKind::Threads] = {area.x0 + half + split, y2, area.x1, area.y1};
    PanelKind main = walkthrough ? PanelKind::Side : PanelKind::Editor;
    if (!(open.browser || open.cases || (open.side && !walkthrough))) {
        a[main] = {area.x0, area.y0, area.x1, y1};
        return a;
    }
    float colW =
        std::max(std::round(kPresenterColumnEms * fontSize), std::round(area.width() * 0.28f));
    if (open.side && !walkthrough) colW = std::max(colW, std::ceil(sideWidth));
    if (area.width() - colW - split < kPresenterMainEms * fontSize) {
        a.columnOverAll = true; // too narrow for both: the column alone, over the whole top row
        stackColumn(a, open, walkthrough, area.x0, area.x1, area.y0, y1, split);
        return a;
    }
    stackColumn(a, open, walkthrough, area.x0, area.x0 + colW, area.y0, y1, split);
    a[main] = {area.x0 + colW + split, area.y0, area.x1, y1};
    return a;
}

PanelArrangement maximisePanel(PanelKind kind, PanelBox area) {
    PanelArrangement a;
    a.maximised = true;
    a[kind] = area;
    return a;
}

std::optional<PanelKind> panelAt(const PanelArrangement& a, float x, float y) {
    for (size_t i = 0; i < kPanelCount; ++i)
        if (a.panels[i].contains(x, y)) return static_cast<PanelKind>(i);
    return std::nullopt;
}

} // namespace vkp::ui
