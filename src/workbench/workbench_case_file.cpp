// The Workbench's case files (report/case_file.h): one opened in place of the learner's puzzle,
// read-only, and one written from the learner's latest check.
#include "workbench/workbench.h"

namespace vkp::ui {

Status Workbench::openCaseFile(const std::string& path) {
    auto opened = readCaseFile(path);
    if (!opened) return opened.error();
    m_caseFileDue = std::move(*opened);
    m_caseFileClosing = false;
    return okStatus();
}

void Workbench::closeCaseFile() {
    m_caseFileDue.reset();
    m_caseFileClosing = true;
}

void Workbench::showCaseFile(OpenedCaseFile opened) {
    saveDraftNow(); // the learner's text is on disk before it leaves the editor
    m_caseFile = std::move(opened);
    m_caseDocument.setText(m_caseFile->file.kernelText);
    m_caseWatches.clear();
    LiveSnapshot s;
    s.status = LiveStatusKind::Done;
    s.revision = s.reportRevision = 1;
    s.puzzle = m_caseFile->puzzle;
    s.report = m_caseFile->report;
    s.reportSource = std::make_shared<const std::string>(m_caseFile->file.kernelText);
    s.device = m_caseFile->file.device;
    s.devices = m_snapshot.devices;
    m_caseSnapshot = std::move(s);
    ++m_puzzleGeneration;
}

void Workbench::hideCaseFile() {
    if (!m_caseFile) return;
    m_caseFile.reset();
    m_caseSnapshot = {};
    ++m_puzzleGeneration;
}

Status Workbench::openKernelFile(const std::string& path) {
    if (m_index < 0) return Error{ErrorKind::Usage, "no puzzle is open to put a kernel in"};
    auto text = kernelFileText(m_puzzles.puzzles[m_index], path);
    if (!text) return text.error();
    closeCaseFile();
    m_kernelDue = std::make_pair(path, std::move(*text));
    return okStatus();
}

Result<std::string> Workbench::exportCaseFile(const std::string& dir, size_t caseIndex) {
    const Puzzle* p = puzzle();
    if (!p) return Error{ErrorKind::Usage, "no puzzle is open"};
    if (m_caseFile)
        return Error{ErrorKind::Usage, "this is a case file already: " + m_caseFile->path};
    const CheckReport* r = currentReport();
    if (!r || m_snapshot.status != LiveStatusKind::Done)
        return Error{ErrorKind::Usage, "the check of your latest text has not finished yet"};
    if (!m_snapshot.device) return Error{ErrorKind::Usage, "no device has run it"};
    auto file = makeCaseFile(*p, *r, caseIndex, m_document.text(), *m_snapshot.device);
    if (!file) return file.error();
    std::string target = freeCaseFilePath(dir, *p, caseIndex);
    if (Status s = writeCaseFile(target, *file); !s) return s.error();
    return target;
}

} // namespace vkp::ui
