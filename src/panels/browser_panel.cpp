#include "panels/browser_panel.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::string titleCase(std::string s) {
    if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

// The part of a title before ": " ("" when it has none).
std::string titlePrefix(const std::string& title) {
    size_t colon = title.find(": ");
    return colon == std::string::npos ? "" : title.substr(0, colon);
}

// One row: solved mark, number, title; selected when open. `prefixShared`: another puzzle's title
// starts with the same words before its colon.
// `missing`: what the official solution needs that the device checks run on lacks (greyed).
bool puzzleRow(const Puzzle& p, bool open, const PuzzleProgress& pr, bool prefixShared,
               const DeviceNeeds& missing) {
    const Palette& pal = palette();
    ImGui::PushID(p.key().c_str());
    float h = ImGui::GetTextLineHeight() + ImGui::GetStyle().FramePadding.y * 2;
    ImVec2 pos = ImGui::GetCursorScreenPos();
    bool clicked = ImGui::Selectable("##row", open, 0, ImVec2(0, h));
    layout::item("puzzle/" + p.key());
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float y = pos.y + (h - ImGui::GetFontSize()) * 0.5f, pad = ImGui::GetFontSize() * 0.4f;
    SolvedMark m = solvedMark(pr);
    dl->AddText(ImVec2(pos.x + pad, y), m.colour, m.glyph);
    char num[16];
    std::snprintf(num, sizeof num, "%2d", p.number);
    dl->AddText(fonts().mono, fonts().mono->FontSize,
                ImVec2(pos.x + pad + ImGui::GetFontSize() * 1.2f, y), pal.dimText, num);
    // A title too long for the list keeps the part that tells it apart: "Multi-block scan: reduce,
    // then scan" reads "…reduce, then scan" (the tooltip has it whole), not "Multi-block sca" three
    // times. A title whose words before the colon are its own keeps them: "Radix sort: eight…".
    float titleX = pos.x + pad + ImGui::GetFontSize() * 3.0f,
          room = ImGui::GetItemRectMax().x - titleX - pad;
    std::string title = p.title;
    if (prefixShared && ImGui::CalcTextSize(title.c_str()).x > room)
        title = "\xE2\x80\xA6" + title.substr(title.find(": ") + 2);
    dl->AddText(ImVec2(titleX, y), missing.empty() ? pal.text : pal.dimText,
                ellipsize(title, room).c_str());
    if (!missing.empty()) layout::fact("lacks/" + p.key(), needsText(missing));
    ImGui::PopID();
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushFont(fonts().bold);
        ImGui::TextUnformatted(p.displayName().c_str());
        ImGui::PopFont();
        dimText((p.pack.empty() ? p.folder : p.key() + " (" + p.packRoot + ")") + " \xC2\xB7 " +
                std::to_string(p.cases.size()) + " test cases \xC2\xB7 " +
                std::to_string(p.hints.size()) + " hints");
        if (pr.how != SolvedHow::NotYet) colouredText(solvedMark(pr).colour, solvedMark(pr).words);
        if (pr.hintsRevealed)
            dimText(std::to_string(pr.hintsRevealed) +
                    (pr.hintsRevealed == 1 ? " hint used" : " hints used"));
        if (!p.needs.empty()) dimText("needs " + needsText(p.needs));
        if (!missing.empty())
            colouredText(pal.fail, "this device lacks " + needsText(missing) +
                                       ": the official solution cannot run on it");
        ImGui::EndTooltip();
    }
    return clicked;
}

// Above a pack's puzzles (added with --puzzles): its name, its folder in the tooltip.
void packHeader(const Puzzle& p, bool after) {
    if (after) ImGui::Spacing();
    ImGui::Separator();
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted(ellipsize("Pack " + p.pack, ImGui::GetContentRegionAvail().x).c_str());
    ImGui::PopFont();
    layout::item("pack/" + p.pack);
    itemTooltip("The puzzle pack " + p.pack + " from " + p.packRoot +
                "; its drafts and progress are kept apart from the built-in puzzles'.");
}

} // namespace

SolvedMark solvedMark(const PuzzleProgress& pr) {
    const Palette& pal = palette();
    switch (pr.how) {
    case SolvedHow::OnTheirOwn:
        return {"\xE2\x9C\x93", pal.pass, "solved", "solved on your own"}; // check mark
    case SolvedHow::AfterSeeingTheSolution:
        return {"\xE2\x9C\x93", pal.warn, "solved, solution seen",
                "solved after opening the solution"};
    case SolvedHow::OfficialSolution:
        return {"\xE2\x97\x8B", pal.dimText, "solution ran",
                "the official solution ran; not solved by you yet"}; // circle
    case SolvedHow::NotYet:
        break;
    }
    return {"\xE2\x80\xA2", pal.dimText, "", "not solved yet"}; // bullet
}

bool matchesSearch(const Puzzle& p, const std::string& query) {
    std::string q = lower(query);
    q.erase(0, q.find_first_not_of(' '));
    q.erase(q.find_last_not_of(' ') + 1);
    if (q.empty()) return true;
    if (std::to_string(p.number) == q) return true;
    for (const std::string& field : {p.title, p.slug, p.folder, p.track, p.pack})
        if (lower(field).find(q) != std::string::npos) return true;
    return false;
}

void BrowserPanel::draw(Workbench& wb, views::ViewState&, ImVec2 size) {
    const auto& puzzles = wb.puzzles().puzzles;
    int solved = 0;
    for (const Puzzle& p : puzzles)
        solved += wb.progress(p).solved;
    std::string info = std::to_string(solved) + "/" + std::to_string(puzzles.size());
    beginPanel("browser", "Puzzles", size, info + " solved", solved ? palette().pass : 0);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
    bool narrow = ImGui::GetContentRegionAvail().x <
                  ImGui::CalcTextSize("Search puzzles").x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::InputTextWithHint("##search", narrow ? "Search" : "Search puzzles", m_search,
                             sizeof m_search);
    itemTooltip("Search puzzles by number, title or track");
    layout::item("search");
    if (!puzzles.empty()) {
        ImGui::PushStyleColor(ImGuiCol_PlotHistogram,
                              ImGui::ColorConvertU32ToFloat4(palette().pass));
        ImGui::ProgressBar(float(solved) / puzzles.size(),
                           ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 0.35f),
                           "");
        ImGui::PopStyleColor();
    }
    ImGui::BeginChild("list", ImVec2(0, 0), false);
    std::map<std::string, int> prefixes; // how many titles start with each "words: "
    for (const Puzzle& p : puzzles)
        if (std::string prefix = titlePrefix(p.title); !prefix.empty()) ++prefixes[prefix];
    std::string track, pack;
    int shown = 0;
    for (size_t i = 0; i < puzzles.size(); ++i) {
        const Puzzle& p = puzzles[i];
        if (!matchesSearch(p, m_search)) continue;
        if (p.pack != pack) packHeader(p, shown > 0);
        if (p.track != track || p.pack != pack || shown == 0) {
            track = p.track;
            pack = p.pack;
            if (shown) ImGui::Spacing();
            ImGui::PushFont(fonts().bold);
            std::string header = titleCase(track) + " track";
            dimText(ellipsize(header, ImGui::GetContentRegionAvail().x));
            itemTooltip(header);
            ImGui::PopFont();
        }
        ++shown;
        bool open = static_cast<int>(i) == wb.puzzleIndex();
        std::string prefix = titlePrefix(p.title);
        bool prefixShared = !prefix.empty() && prefixes[prefix] > 1;
        DeviceNeeds missing =
            wb.snapshot().device ? missingOn(p.needs, *wb.snapshot().device) : DeviceNeeds{};
        if (puzzleRow(p, open, wb.progress(p), prefixShared, missing))
            wb.requestPuzzle(static_cast<int>(i));
        if (open && m_scrolledTo != wb.puzzleIndex()) {
            ImGui::SetScrollHereY(0.3f);
            m_scrolledTo = wb.puzzleIndex();
        }
    }
    if (shown == 0) {
        dimText(puzzles.empty() ? "No puzzles were loaded." : "No puzzle matches.");
    }
    ImGui::EndChild();
    endPanel();
}

} // namespace vkp::ui
