#include "core/source_text.h"

#include <sstream>

namespace vkp {

std::string sourceLine(const std::string& text, int line) {
    std::istringstream in(text);
    std::string s;
    for (int i = 1; std::getline(in, s); ++i)
        if (i == line) return s;
    return {};
}

} // namespace vkp
