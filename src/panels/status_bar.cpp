#include "panels/status_bar.h"

#include <cmath>

#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {
namespace {

std::string ms(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, v < 10 ? "%.1f ms" : "%.0f ms", v);
    return buf;
}

// A spinner glyph that turns while work is under way.
const char* spinner() {
    static const char* frames[] = {"\xE2\x97\x90", "\xE2\x97\x93", "\xE2\x97\x91", "\xE2\x97\x92"};
    return frames[static_cast<int>(ImGui::GetTime() * 6) % 4];
}

} // namespace

StatusLook statusLook(const LiveSnapshot& s) {
    const Palette& pal = palette();
    StatusLook l{"", statusLine(s), pal.dimText};
    switch (s.status) {
    case LiveStatusKind::Starting:
    case LiveStatusKind::Compiling:
    case LiveStatusKind::Running:
        l.icon = spinner();
        l.colour = pal.warn;
        break;
    case LiveStatusKind::Waiting:
        l.icon = "\xE2\x80\xA6";
        break;
    case LiveStatusKind::Idle:
        l.icon = "\xE2\x80\xA2";
        break;
    case LiveStatusKind::DeviceError:
        l.icon = "\xE2\x9C\x97";
        l.colour = pal.fail;
        break;
    case LiveStatusKind::Held:
        l.icon = "!";
        l.colour = pal.warn;
        break;
    case LiveStatusKind::Done:
        bool pass = s.report && s.report->allPass();
        l.icon = pass ? "\xE2\x9C\x93" : "\xE2\x9C\x97";
        l.colour = pass ? pal.pass : pal.fail;
        if (pass && s.besideDue()) { // right here; other sizes or the atomic order still running
            l.icon = spinner();
            l.colour = pal.warn;
        }
        break;
    }
    return l;
}

void StatusBar::draw(Workbench& wb, views::ViewState& view, ImVec2 size, float fontScale) {
    const Palette& pal = palette();
    const LiveSnapshot& s = wb.snapshot();
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::ColorConvertU32ToFloat4(pal.panelHeader));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetFontSize() * 0.6f, 0));
    ImGui::BeginChild("status", size, false, ImGuiWindowFlags_NoScrollbar);
    ImGui::SetCursorPosY((size.y - ImGui::GetFrameHeight()) * 0.5f);
    ImGui::AlignTextToFramePadding();
    StatusLook look = statusLook(s);
    // Right side first: device, text size, theme; the status line gets what is left.
    std::string device = s.device ? s.device->name : "no device";
    std::string zoom = std::to_string(static_cast<int>(std::lround(fontScale * 100))) + "%";
    // Presenter mode offers the high-contrast theme here; otherwise light and dark.
    bool offerContrast = presenterMode() && currentTheme() != ThemeKind::HighContrast;
    const char* themeLabel = offerContrast                       ? "High contrast"
                             : currentTheme() == ThemeKind::Dark ? "Light theme"
                                                                 : "Dark theme";
    float buttons = ImGui::CalcTextSize("A-").x + ImGui::CalcTextSize("A+").x +
                    ImGui::CalcTextSize(themeLabel).x + ImGui::CalcTextSize(zoom.c_str()).x +
                    ImGui::GetStyle().FramePadding.x * 6 + ImGui::GetFontSize() * 3;
    float deviceRoom =
        std::min(ImGui::CalcTextSize(device.c_str()).x, ImGui::GetWindowWidth() * 0.25f);
    float right = buttons + deviceRoom + ImGui::GetFontSize();
    float left = ImGui::GetWindowWidth() - right - ImGui::GetFontSize() * 1.5f;
    std::string line = ellipsize(look.icon + " " + look.text, left);
    colouredText(look.colour, line);
    if (line != look.icon + " " + look.text) itemTooltip(look.text);
    float used = ImGui::GetItemRectSize().x;
    std::string timing;
    if (s.report && s.status == LiveStatusKind::Done && s.report->compiled()) {
        const StageTimings& t = s.report->timing;
        timing = "compile " + ms(t.compileMs) + " \xC2\xB7 run " + ms(t.pipelineMs + t.runMs) +
                 (t.gpuMs > 0 ? " (device " + ms(t.gpuMs) + ")" : "");
    }
    if (!timing.empty() &&
        used + ImGui::CalcTextSize(timing.c_str()).x + ImGui::GetFontSize() * 1.5f <= left) {
        ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
        dimText(timing);
        itemTooltip("Compile: shaderc, in-process. Run: pipelines for each launch shape, upload, "
                    "dispatch every case, read back. Device: the dispatches' own timestamps.");
    }
    ImGui::SameLine(ImGui::GetWindowWidth() - right);
    dimText(ellipsize(device, deviceRoom));
    itemTooltip("The device that runs your kernel. Change it in the Device tab.");
    if (ImGui::IsItemClicked()) view.showTab = views::SideTab::Device;
    ImGui::SameLine(0, ImGui::GetFontSize());
    if (ImGui::SmallButton("A-")) view.fontSmaller = true;
    layout::item("button/A-");
    itemTooltip("Smaller text (Ctrl+-)");
    ImGui::SameLine();
    dimText(zoom);
    ImGui::SameLine();
    if (ImGui::SmallButton("A+")) view.fontBigger = true;
    layout::item("button/A+");
    itemTooltip("Larger text for presenting (Ctrl+=)");
    ImGui::SameLine(0, ImGui::GetFontSize());
    if (ImGui::SmallButton(themeLabel))
        (offerContrast ? view.toggleHighContrast : view.toggleTheme) = true;
    layout::item(std::string("button/") + themeLabel);
    ImGui::EndChild();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
}

} // namespace vkp::ui
