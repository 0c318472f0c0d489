// A diagnostic: a message about a place in a file, with how bad it is. The compiler's and the
// interface check's about a kernel, pack check's lint of a puzzle.toml, a walkthrough's validation.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"

namespace vkp {

enum class SeverityKind { Error, Warning, Note };
const char* severityName(SeverityKind s); // "error", "warning", "note"

struct Diagnostic {
    std::string file; // the path as the user named it (a kernel, a puzzle.toml)
    int line = 0;     // 1-based; 0 when the message is about the whole file
    int column = 0;   // 1-based; 0 when unknown
    SeverityKind severity = SeverityKind::Error;
    std::string message;

    std::string str() const; // "file:line:col: error: message"
    SourceLocation where() const { return {file, line, column}; }
};

Diagnostic diagnosticAt(const SourceLocation& where, SeverityKind severity, std::string message);

bool hasErrors(const std::vector<Diagnostic>& diagnostics);

} // namespace vkp
