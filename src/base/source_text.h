// Small helpers over source text (kernels, puzzle files) shared by diagnostics and reports.
#pragma once

#include <optional>
#include <regex>
#include <string>

namespace vkp {

// The 1-based line `line` of `text`, without its newline; "" when there is no such line.
std::string sourceLine(const std::string& text, int line);
// The 1-based number of the first line of `text` that `pattern` matches in, or 0.
int firstLineMatching(const std::string& text, const std::regex& pattern);
// The line of a kernel that declares `name` at `binding` (`binding = 0` and the name on one line:
// a kernel may declare one binding twice), else the first with `binding = N`, else 0.
int bindingDeclarationLine(const std::string& text, unsigned binding, const std::string& name);

// A C-like text (GLSL) without its comments and layout: comments dropped, runs of white space
// kept only as one space between two word characters. Two kernels that differ only in comments,
// indentation or line breaks give the same string.
std::string codeWithoutCommentsOrLayout(const std::string& text);

// The condition that decides whether a line of a kernel runs: the innermost `if`, `else`, `while`
// or `for` whose body holds the line's first statement (the efficiency lens quotes it where lanes
// of a subgroup split). A line that is only a header (`if (a[i] > 0) {`) belongs to the
// construct around it. A textual reading of GLSL (comments, braces, parentheses, statements), not a
// parser: a macro that hides braces can mislead it, and then it says nothing rather than guess.
struct EnclosingCondition {
    int line = 0;          // the header's line
    std::string keyword;   // "if", "else" (of the if at `line`), "while" or "for"
    std::string condition; // as written, on one line: "tid % (2u * s) == 0u"; for: the middle part
};
std::optional<EnclosingCondition> enclosingCondition(const std::string& text, int line);

} // namespace vkp
