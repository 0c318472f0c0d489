// Small helpers over source text (kernels, puzzle files) shared by diagnostics and reports.
#pragma once

#include <string>

namespace vkp {

// The 1-based line `line` of `text`, without its newline; "" when there is no such line.
std::string sourceLine(const std::string& text, int line);

// A C-like text (GLSL) without its comments and layout: comments dropped, runs of white space
// kept only as one space between two word characters. Two kernels that differ only in comments,
// indentation or line breaks give the same string.
std::string codeWithoutCommentsOrLayout(const std::string& text);

} // namespace vkp
