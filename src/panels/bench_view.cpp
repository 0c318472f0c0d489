#include "panels/bench_view.h"

#include <algorithm>
#include <cstdio>

#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {
namespace {

const char* stateName(BackgroundBenchState s) {
    switch (s) {
    case BackgroundBenchState::Idle:
        return "idle";
    case BackgroundBenchState::Running:
        return "running";
    case BackgroundBenchState::Done:
        return "done";
    case BackgroundBenchState::Failed:
        return "failed";
    case BackgroundBenchState::Cancelled:
        return "cancelled";
    }
    return "";
}

} // namespace

void BenchView::drawButton(Workbench& wb) {
    const Puzzle* p = wb.puzzle();
    if (!p) return;
    if (m_checkedFor != p->key()) {
        m_checkedFor = p->key();
        m_unavailable = benchUnavailable(*p);
        m_fixed = fixedLaunch(*p, p->benchCase);
        m_error.clear();
        m_n = countText(p->benchN);
    }
    if (m_unavailable) return;
    bool running = wb.bench().view().state == BackgroundBenchState::Running;
    ImGui::BeginDisabled(running);
    if (m_fixed) { // one workgroup: no N to choose, the case runs as it is
        if (ImGui::SmallButton("Benchmark")) {
            wb.startBench(m_fixed->n);
            m_windowOpen = true;
        }
        layout::item("button/Benchmark");
        itemTooltip("Times your kernel on its case as it is, as `vkpuzzles bench " + p->slug +
                    "` does, against the device's copy bandwidth: " + m_fixed->why +
                    ", so N is that case's own");
        ImGui::EndDisabled();
        ImGui::SameLine();
        dimText("N = " + std::to_string(m_fixed->n) + " (" + m_fixed->grid + ")");
        layout::fact("benchFixed", m_fixed->why);
        return;
    }
    if (ImGui::SmallButton("Benchmark at large N")) {
        auto n = parseCount(m_n);
        if (!n) {
            m_error = n.error().message;
            if (m_error.starts_with("--n "))
                m_error = "N " + m_error.substr(4); // the field, not the option
        } else {
            m_error.clear();
            wb.startBench(*n);
            m_windowOpen = true;
        }
    }
    layout::item("button/Benchmark at large N");
    itemTooltip("Times your kernel at N elements, as `vkpuzzles bench " + p->slug +
                "` does, against the device's copy bandwidth");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextUnformatted("N =");
    ImGui::SameLine();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s", m_n.c_str());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    if (ImGui::InputText("##benchN", buf, sizeof buf)) m_n = buf;
    layout::item("field/bench N");
    if (!m_error.empty()) {
        ImGui::PushTextWrapPos(0);
        colouredText(palette().fail, m_error);
        ImGui::PopTextWrapPos();
        layout::fact("benchError", m_error);
    }
}

void BenchView::drawWindow(Workbench& wb) {
    BackgroundBenchView v = wb.bench().view();
    layout::fact("bench", stateName(v.state));
    if (!m_windowOpen || v.state == BackgroundBenchState::Idle) return;
    // Never wider than the app's window (the figure lines wrap instead of running past its edge);
    // the height fits what it shows, every frame (0 = fit on that axis).
    ImVec2 room = ImGui::GetMainViewport()->Size;
    ImGui::SetNextWindowSize(ImVec2(std::min(ImGui::GetFontSize() * 48, room.x * 0.9f), 0),
                             ImGuiCond_Always);
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    if (!ImGui::Begin("Benchmark at large N", &m_windowOpen, ImGuiWindowFlags_NoCollapse))
        return ImGui::End();
    ImGui::PushTextWrapPos(0.0f);
    layout::rect("window/Benchmark", ImGui::GetWindowPos(),
                 ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowSize().x,
                        ImGui::GetWindowPos().y + ImGui::GetWindowSize().y));
    const Palette& pal = palette();
    ImGui::TextUnformatted((v.puzzle + ", N = " + std::to_string(v.n) + " elements").c_str());
    if (v.state == BackgroundBenchState::Running) {
        colouredText(pal.warn,
                     "benchmarking: " + (v.step.empty() ? std::string("starting") : v.step) +
                         " \xE2\x80\xA6");
        if (ImGui::Button("Cancel")) wb.bench().cancel();
        layout::item("button/Cancel benchmark");
    } else if (v.state == BackgroundBenchState::Cancelled) {
        dimText("cancelled");
    } else if (v.state == BackgroundBenchState::Failed && v.error) {
        colouredText(pal.fail, "The benchmark did not run: " + v.error->message);
        layout::fact("benchError", v.error->message);
    } else if (v.report) {
        dimText("on " + v.report->device);
        ImGui::PushFont(fonts().mono);
        std::string all;
        std::vector<std::string> lines = benchFigureLines(*v.report);
        if (const Puzzle* shown = wb.puzzle(); shown && shown->key() == v.puzzle)
            for (std::string& line : benchPeerLines(*shown, *v.report))
                lines.push_back(std::move(line));
        if (v.official)
            for (std::string& line : benchComparisonLines(*v.report, *v.official))
                lines.push_back(std::move(line));
        for (const std::string& line : lines) {
            ImGui::TextUnformatted(line.c_str());
            all += line + "\n";
        }
        colouredText(v.report->pass ? pal.pass : pal.fail,
                     "result         " + benchResultText(*v.report));
        ImGui::PopFont();
        layout::fact("benchFigures", all);
        layout::fact("benchResult", benchResultText(*v.report));
    }
    ImGui::PopTextWrapPos();
    ImGui::End();
}

} // namespace vkp::ui
