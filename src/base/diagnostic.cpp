#include "base/diagnostic.h"

namespace vkp {

const char* severityName(SeverityKind s) {
    switch (s) {
    case SeverityKind::Error:
        return "error";
    case SeverityKind::Warning:
        return "warning";
    case SeverityKind::Note:
        return "note";
    }
    return "?";
}

std::string Diagnostic::str() const {
    std::string s = file;
    if (line > 0) s += ":" + std::to_string(line);
    if (line > 0 && column > 0) s += ":" + std::to_string(column);
    return s + ": " + severityName(severity) + ": " + message;
}

bool hasErrors(const std::vector<Diagnostic>& diagnostics) {
    for (const Diagnostic& d : diagnostics)
        if (d.severity == SeverityKind::Error) return true;
    return false;
}

} // namespace vkp
