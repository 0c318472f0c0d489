#include "base/diagnostic.h"

#include <utility>

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

Diagnostic diagnosticAt(const SourceLocation& where, SeverityKind severity, std::string message) {
    return {where.file, where.line, where.column, severity, std::move(message)};
}

bool hasErrors(const std::vector<Diagnostic>& diagnostics) {
    for (const Diagnostic& d : diagnostics)
        if (d.severity == SeverityKind::Error) return true;
    return false;
}

} // namespace vkp
