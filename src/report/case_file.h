// A case file: one case of a check as the learner saw it, in one file that someone else opens on
// any machine, read-only and without running anything (`vkpuzzles export` and `open`, the app's
// File menu, a file dropped on the window): the puzzle's identity and its puzzle.toml, the
// learner's kernel, the case, the device, the verdict and the trace of every dispatch.
//
// Layout (docs/case-files.md): the magic "VKPCASE\0", the format version, the payload's length and
// FNV-1a fingerprint, then the payload (base/wire_describe.h's encoding). A file that is cut
// short, changed, of another format or of a newer version is refused with the reason; every index
// the views follow is checked against the puzzle and the trace before anything is shown.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/text_file.h"
#include "device/device_info.h"
#include "puzzle/puzzle.h"
#include "report/check_report.h"

namespace vkp {

inline constexpr uint32_t kCaseFileVersion = 1;
// A check keeps at most 16 MiB of trace records per case (more are re-run in parts); a multi-pass
// case's dispatches together, with their data, stay far below this.
inline constexpr FileLimit kCaseFileLimit{256u << 20, "a case file"};
inline constexpr const char* kCaseFileExtension = ".vkpcase";

struct CaseFile {
    std::string madeBy;       // "vkpuzzles 0.9.0"
    std::string madeAt;       // "2026-11-28 14:22 UTC"
    std::string pack;         // the puzzle's pack ("" for a built-in puzzle)
    std::string puzzleFolder; // "01-map"
    std::string puzzleToml;   // its puzzle.toml, whole: the file opens the same everywhere
    std::string kernelText;   // the learner's kernel (a multi-kernel puzzle's joined with markers)
    DeviceInfo device;        // where it ran
    // The check, holding the one case (`cases` has one entry) with its data and traces, and the
    // verdicts beside it (other subgroup sizes, fresh inputs).
    CheckReport report;

    size_t caseIndex() const { return report.cases.empty() ? 0 : report.cases.front().index; }
};

// One case of `report` (which ran it), with everything needed to show it elsewhere. An error says
// why not: the case did not run, or it is the learner's own case (not in the puzzle's file).
Result<CaseFile> makeCaseFile(const Puzzle& puzzle, const CheckReport& report, size_t caseIndex,
                              std::string kernelText, const DeviceInfo& device);

// What a case file looks like once opened: the puzzle parsed from it, and the report with each
// trace's analysis derived again (its findings as they were recorded).
struct OpenedCaseFile {
    CaseFile file;
    std::shared_ptr<const Puzzle> puzzle;
    std::shared_ptr<const CheckReport> report;
    std::string path; // where it was read from ("" when decoded from memory)
};

std::string encodeCaseFile(const CaseFile& file);
// A payload framed as a case file: magic, version, length and fingerprint before it
// (encodeCaseFile's last step; the fuzzer frames its inputs with it to reach the fields).
std::string frameCaseFile(std::string_view payload);
// `name` names the file in errors ("case.vkpcase is damaged: ...").
Result<OpenedCaseFile> decodeCaseFile(std::string_view bytes, const std::string& name);

// Where a case file of `puzzle`'s case goes in `dir` ("" : the current folder) without replacing
// one: DIR/SLUG-caseN.vkpcase, or with "-2", "-3"... when that name is taken.
std::string freeCaseFilePath(const std::string& dir, const Puzzle& puzzle, size_t caseIndex);

// Written whole or not at all; refused when it would be over kCaseFileLimit.
Status writeCaseFile(const std::string& path, const CaseFile& file);
Result<OpenedCaseFile> readCaseFile(const std::string& path);
// Whether the file at `path` starts as a case file does (its magic), whatever its name.
bool looksLikeCaseFile(const std::string& path);

// "case 3 of 16-scan-blocks: FAIL (result[2]: expected 5, got 4) on NVIDIA H200": a file's
// one-line summary, for the app's banner and the command line.
std::string caseFileSummary(const OpenedCaseFile& opened);

} // namespace vkp
