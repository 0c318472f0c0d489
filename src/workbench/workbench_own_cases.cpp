// Workbench: the learner's own cases and the background benchmark (kept apart from workbench.cpp,
// which holds the puzzle, draft and progress logic).
#include "workbench/workbench.h"

namespace vkp::ui {

void Workbench::rebuildOwnCases() {
    Puzzle& p = m_puzzles.puzzles[m_index];
    vkp::applyOwnCases(p, m_ownCases.specs(p.key()), m_messages);
    // The session checks the new case list at once, with the text in the editor.
    m_session->open(p, m_document.text(), !m_draft.compilerCrashed);
    m_sentRevision = m_document.revision();
    m_officialFor.clear(); // open() dropped any aside check
    m_snapshot = m_session->snapshot();
}

// The case list changes at the start of the next update(), between frames, like a puzzle switch:
// panels still drawing this frame keep the cases they started with.
Result<size_t> Workbench::addOwnCase(const OwnCaseSpec& spec) {
    const Puzzle* p = puzzle();
    if (!p) return Error{ErrorKind::Usage, "no puzzle is open"};
    if (m_caseFile) return Error{ErrorKind::Usage, "a case file is open: nothing runs in it"};
    auto c = buildOwnCase(*p, spec, formFieldName);
    if (!c) return c.error();
    m_ownCases.add(p->key(), spec);
    if (auto saved = m_ownCases.save(); !saved)
        m_messages.push_back("Your own case could not be saved (" + saved.error().message +
                             "); it is kept until the app closes.");
    m_ownCasesChanged = true;
    return p->puzzleCaseCount() + m_ownCases.specs(p->key()).size() - 1;
}

void Workbench::removeOwnCase(size_t caseIndex) {
    const Puzzle* p = puzzle();
    if (!p || m_caseFile || caseIndex >= p->cases.size() || !p->cases[caseIndex].own) return;
    m_ownCases.remove(p->key(), caseIndex - p->puzzleCaseCount());
    if (auto saved = m_ownCases.save(); !saved)
        m_messages.push_back("Your own cases could not be saved: " + saved.error().message);
    m_ownCasesChanged = true;
}

void Workbench::startBench(uint64_t n) {
    const Puzzle* p = puzzle();
    if (!p || m_caseFile) return;
    BenchOptions o;
    o.n = n;
    o.templateCase = p->benchCase;
    m_bench->start(*p, m_document.text(), o);
}

} // namespace vkp::ui
