// A message about the learner's kernel: where, how bad, and what.
#pragma once

#include <string>
#include <vector>

namespace vkp {

enum class SeverityKind { Error, Warning, Note };
const char* severityName(SeverityKind s); // "error", "warning", "note"

struct Diagnostic {
    std::string file; // the kernel's path as the user named it
    int line = 0;     // 1-based; 0 when the message is about the whole kernel
    int column = 0;   // 1-based; 0 when unknown
    SeverityKind severity = SeverityKind::Error;
    std::string message;

    std::string str() const; // "file:line:col: error: message"
};

bool hasErrors(const std::vector<Diagnostic>& diagnostics);

} // namespace vkp
