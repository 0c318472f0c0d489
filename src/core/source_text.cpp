#include "core/source_text.h"

#include <cctype>
#include <sstream>

namespace vkp {

std::string sourceLine(const std::string& text, int line) {
    std::istringstream in(text);
    std::string s;
    for (int i = 1; std::getline(in, s); ++i)
        if (i == line) return s;
    return {};
}

std::string codeWithoutCommentsOrLayout(const std::string& text) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    std::string out;
    bool space = false; // white space (or a comment) since the last character kept
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
            while (i < text.size() && text[i] != '\n')
                ++i;
            space = true;
            continue;
        }
        if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
            size_t end = text.find("*/", i + 2);
            i = end == std::string::npos ? text.size() : end + 1;
            space = true;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = true;
            continue;
        }
        if (space && !out.empty() && word(out.back()) && word(c)) out += ' ';
        out += c;
        space = false;
    }
    return out;
}

} // namespace vkp
