// libFuzzer target: a case file's payload (framed with a right fingerprint, so that the fields
// are reached) must open or be refused with a reason, never crash, hang or read out of bounds;
// one that opens must hold a case of its puzzle, with its traces analysed again.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "report/case_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string file =
        vkp::frameCaseFile(std::string_view(reinterpret_cast<const char*>(data), size));
    auto opened = vkp::decodeCaseFile(file, "fuzz.vkpcase");
    if (!opened) {
        if (opened.error().message.empty()) __builtin_trap(); // a refusal says why
        return 0;
    }
    const vkp::CaseOutcome& c = opened->report->cases.at(0);
    if (c.index >= opened->puzzle->cases.size()) __builtin_trap();
    (void)vkp::caseFileSummary(*opened);
    return 0;
}
