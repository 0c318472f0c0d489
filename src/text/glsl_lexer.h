// Splits GLSL lines into coloured spans for the editor (keywords, types, built-ins, numbers,
// comments, preprocessor lines). Headless; block comments carry over from line to line.
#pragma once

#include <string>
#include <vector>

namespace vkp::text {

enum class TokenKind {
    Identifier,
    Keyword,  // if, for, layout, buffer, shared, ...
    Type,     // uint, vec2, ...
    Builtin,  // gl_GlobalInvocationID, ...
    Function, // barrier, atomicAdd, subgroupAdd, ...
    Number,
    Comment,
    Preprocessor, // #version, #define
    Punctuation,
    Space,
};

struct Token {
    int begin = 0; // byte offsets in the line
    int end = 0;
    TokenKind kind = TokenKind::Identifier;
};

struct LexState {
    bool inBlockComment = false; // a /* ... */ comment continues onto the next line
};

// Tokens of one line, covering it entirely; `state` carries block comments across lines.
std::vector<Token> lexGlslLine(const std::string& line, LexState& state);

} // namespace vkp::text
