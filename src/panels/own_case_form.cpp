#include "panels/own_case_form.h"

#include "puzzle/own_case.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {
namespace {

constexpr const char* kPopup = "Add a case";

// A literal written in the puzzle file is shown as a number to change; an expression is left
// empty (it follows the inputs) with the expression as the hint.
bool isNumber(const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

} // namespace

void OwnCaseForm::open(const Puzzle& p, size_t caseIndex) {
    auto data = materializeCase(p, caseIndex);
    if (!data) return;
    const TestCase& c = p.cases[caseIndex];
    m_folder = p.key();
    m_template = c.own ? 0 : caseIndex;
    m_multiPass = p.multiPass();
    m_inputs.clear();
    m_constants.clear();
    m_error.clear();
    for (size_t b = 0; b < p.buffers.size(); ++b) {
        const BufferDecl& d = p.buffers[b];
        if (d.role == RoleKind::Output || d.size) continue;
        std::string label = d.name + " (" + elementKindName(d.type) +
                            (d.dims == 2 ? ", 2D: rows separated by ';'" : "") + ")";
        m_inputs.push_back(
            {d.name, label, dataSpecFormText(*c.data[b], data->initial[b], d.dims), ""});
    }
    m_workgroupSize = {"workgroup_size", "Workgroup size (threads, X,Y,Z)",
                       dimsListText(c.workgroupSize), ""};
    bool followsN =
        c.workgroupExprs[0].usesN() || c.workgroupExprs[1].usesN() || c.workgroupExprs[2].usesN();
    m_workgroups = {"workgroups", "Workgroups (X,Y,Z)", followsN ? "" : dimsListText(c.workgroups),
                    followsN ? "from N: " + c.workgroupExprs[0].text() : ""};
    for (const ConstantDecl& k : p.constants) {
        const Expr& e = c.constantExprs.at(k.id);
        bool literal = isNumber(e.text()) || e.text().empty();
        m_constants.push_back({k.name, k.name, literal ? std::to_string(c.constants.at(k.id)) : "",
                               literal ? "" : "from N: " + e.text()});
    }
    m_requestOpen = true;
}

void OwnCaseForm::drawField(const std::string& probeName, Field& f, bool multiline) {
    ImGui::TextUnformatted(f.label.c_str());
    ImGui::PushID(probeName.c_str());
    stringField("##field", f.text, f.hint, multiline, ImGui::GetFontSize() * 30);
    layout::item("field/" + probeName);
    ImGui::PopID();
}

void OwnCaseForm::draw(Workbench& wb, views::ViewState& view) {
    const Puzzle* p = wb.puzzle();
    if (m_requestOpen) {
        ImGui::OpenPopup(kPopup);
        m_requestOpen = false;
        m_open = true;
    }
    if (!m_open) return;
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal(kPopup, &m_open, ImGuiWindowFlags_AlwaysAutoResize)) {
        m_open = false;
        return;
    }
    layout::fact("ownCaseForm", "1");
    if (!p || p->key() != m_folder) { // another puzzle opened meanwhile
        m_open = false;
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    dimText("Starts from case " + std::to_string(m_template + 1) +
            "; sizes written as expressions of N follow your inputs.");
    for (Field& f : m_inputs)
        drawField("own/" + f.name, f, true);
    drawField("own/workgroup_size", m_workgroupSize, false);
    if (!m_multiPass) drawField("own/workgroups", m_workgroups, false);
    for (Field& f : m_constants)
        drawField("own/" + f.name, f, false);
    const TestCase& templ = p->cases[m_template];
    for (size_t b = 0; b < p->buffers.size(); ++b)
        if (p->buffers[b].role == RoleKind::Output && templ.data[b]->kind != DataSpec::Kind::Op &&
            templ.data[b]->kind != DataSpec::Kind::Each) {
            colouredText(palette().warn, "This puzzle's expected values are written out by hand: "
                                         "your case runs, but has no expected output to check.");
            break;
        }
    if (!m_error.empty()) {
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + ImGui::GetFontSize() * 30);
        colouredText(palette().fail, m_error);
        ImGui::PopTextWrapPos();
        layout::fact("ownCaseError", m_error);
    }
    if (ImGui::Button("Run")) run(wb, view);
    layout::item("button/Run own case");
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) {
        m_open = false;
        ImGui::CloseCurrentPopup();
    }
    layout::item("button/Cancel own case");
    ImGui::EndPopup();
}

void OwnCaseForm::run(Workbench& wb, views::ViewState& view) {
    OwnCaseSpec spec;
    spec.templateCase = m_template;
    for (const Field& f : m_inputs)
        spec.inputs.emplace_back(f.name, f.text);
    spec.workgroupSize = m_workgroupSize.text;
    if (!m_multiPass) spec.workgroups = m_workgroups.text;
    for (const Field& f : m_constants)
        if (!f.text.empty()) spec.constants.emplace_back(f.name, f.text);
    auto added = wb.addOwnCase(spec);
    if (!added) {
        m_error = added.error().message; // the fields keep what was typed
        return;
    }
    view.selectedCase = static_cast<int>(*added);
    m_open = false;
    ImGui::CloseCurrentPopup();
}

} // namespace vkp::ui
