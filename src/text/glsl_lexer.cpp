#include "text/glsl_lexer.h"

#include <cctype>
#include <string_view>
#include <unordered_set>

namespace vkp::text {
namespace {

using Words = std::unordered_set<std::string_view>;

const Words kKeywords = {
    "if",
    "else",
    "for",
    "while",
    "do",
    "break",
    "continue",
    "return",
    "discard",
    "switch",
    "case",
    "default",
    "const",
    "in",
    "out",
    "inout",
    "uniform",
    "buffer",
    "shared",
    "layout",
    "readonly",
    "writeonly",
    "coherent",
    "volatile",
    "restrict",
    "struct",
    "precision",
    "highp",
    "mediump",
    "lowp",
    "true",
    "false",
    "std430",
    "std140",
    "binding",
    "set",
    "local_size_x",
    "local_size_y",
    "local_size_z",
    "local_size_x_id",
    "local_size_y_id",
    "local_size_z_id",
    "constant_id",
    "push_constant",
    "flat",
    "smooth",
    "invariant",
};

const Words kTypes = {
    "void",   "bool",    "int",      "uint",      "float",  "double",  "vec2",    "vec3",
    "vec4",   "ivec2",   "ivec3",    "ivec4",     "uvec2",  "uvec3",   "uvec4",   "bvec2",
    "bvec3",  "bvec4",   "dvec2",    "dvec3",     "dvec4",  "mat2",    "mat3",    "mat4",
    "mat2x2", "mat2x3",  "mat2x4",   "mat3x2",    "mat3x3", "mat3x4",  "mat4x2",  "mat4x3",
    "mat4x4", "int64_t", "uint64_t", "float16_t", "int8_t", "uint8_t", "int16_t", "uint16_t",
};

const Words kFunctions = {
    "barrier",
    "memoryBarrier",
    "memoryBarrierShared",
    "memoryBarrierBuffer",
    "groupMemoryBarrier",
    "atomicAdd",
    "atomicMin",
    "atomicMax",
    "atomicAnd",
    "atomicOr",
    "atomicXor",
    "atomicExchange",
    "atomicCompSwap",
    "subgroupBarrier",
    "subgroupElect",
    "subgroupAll",
    "subgroupAny",
    "subgroupBroadcast",
    "subgroupBroadcastFirst",
    "subgroupBallot",
    "subgroupAdd",
    "subgroupMul",
    "subgroupMin",
    "subgroupMax",
    "subgroupInclusiveAdd",
    "subgroupExclusiveAdd",
    "subgroupShuffle",
    "subgroupShuffleUp",
    "subgroupShuffleDown",
    "subgroupShuffleXor",
    "min",
    "max",
    "clamp",
    "abs",
    "sign",
    "floor",
    "ceil",
    "fract",
    "mod",
    "pow",
    "exp",
    "exp2",
    "log",
    "log2",
    "sqrt",
    "inversesqrt",
    "mix",
    "step",
    "smoothstep",
    "dot",
    "cross",
    "length",
    "distance",
    "normalize",
    "sin",
    "cos",
    "tan",
    "fma",
    "bitCount",
    "findLSB",
    "findMSB",
    "bitfieldExtract",
    "floatBitsToUint",
    "uintBitsToFloat",
};

bool isIdentStart(unsigned char c) {
    return std::isalpha(c) || c == '_';
}
bool isIdentChar(unsigned char c) {
    return std::isalnum(c) || c == '_';
}

TokenKind classify(std::string_view word) {
    if (word.substr(0, 3) == "gl_") return TokenKind::Builtin;
    if (kKeywords.count(word)) return TokenKind::Keyword;
    if (kTypes.count(word)) return TokenKind::Type;
    if (kFunctions.count(word)) return TokenKind::Function;
    return TokenKind::Identifier;
}

int scanNumber(const std::string& s, int i) {
    int n = static_cast<int>(s.size());
    if (s[i] == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        i += 2;
        while (i < n && std::isxdigit(static_cast<unsigned char>(s[i])))
            ++i;
    } else {
        while (i < n && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.'))
            ++i;
        if (i < n && (s[i] == 'e' || s[i] == 'E')) {
            ++i;
            if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
            while (i < n && std::isdigit(static_cast<unsigned char>(s[i])))
                ++i;
        }
    }
    while (i < n &&
           (s[i] == 'u' || s[i] == 'U' || s[i] == 'f' || s[i] == 'F' || s[i] == 'l' || s[i] == 'L'))
        ++i;
    return i;
}

} // namespace

std::vector<Token> lexGlslLine(const std::string& s, LexState& state) {
    std::vector<Token> out;
    int n = static_cast<int>(s.size()), i = 0;
    auto push = [&](int b, int e, TokenKind k) {
        if (!out.empty() && out.back().kind == k && out.back().end == b &&
            k != TokenKind::Identifier)
            out.back().end = e;
        else
            out.push_back({b, e, k});
    };
    if (state.inBlockComment) {
        size_t close = s.find("*/");
        int end = close == std::string::npos ? n : static_cast<int>(close) + 2;
        state.inBlockComment = close == std::string::npos;
        push(0, end, TokenKind::Comment);
        i = end;
    }
    size_t firstNonBlank = s.find_first_not_of(" \t");
    if (i == 0 && firstNonBlank != std::string::npos && s[firstNonBlank] == '#') {
        size_t comment = s.find("//");
        int end = comment == std::string::npos ? n : static_cast<int>(comment);
        push(0, end, TokenKind::Preprocessor);
        i = end;
    }
    while (i < n) {
        unsigned char c = s[i];
        if (c == ' ' || c == '\t') {
            int b = i;
            while (i < n && (s[i] == ' ' || s[i] == '\t'))
                ++i;
            push(b, i, TokenKind::Space);
        } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            push(i, n, TokenKind::Comment);
            i = n;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            size_t close = s.find("*/", i + 2);
            int end = close == std::string::npos ? n : static_cast<int>(close) + 2;
            state.inBlockComment = close == std::string::npos;
            push(i, end, TokenKind::Comment);
            i = end;
        } else if (std::isdigit(c) ||
                   (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            int e = scanNumber(s, i);
            push(i, e, TokenKind::Number);
            i = e;
        } else if (isIdentStart(c)) {
            int b = i;
            while (i < n && isIdentChar(static_cast<unsigned char>(s[i])))
                ++i;
            push(b, i, classify(std::string_view(s).substr(b, i - b)));
        } else {
            int b = i++;
            while (i < n && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80)
                ++i; // a whole UTF-8 character
            push(b, i, TokenKind::Punctuation);
        }
    }
    return out;
}

} // namespace vkp::text
