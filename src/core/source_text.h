// Small helpers over source text (kernels, puzzle files) shared by diagnostics and reports.
#pragma once

#include <string>

namespace vkp {

// The 1-based line `line` of `text`, without its newline; "" when there is no such line.
std::string sourceLine(const std::string& text, int line);

} // namespace vkp
