// GLSL colouring: token kinds and block comments across lines.
#include <gtest/gtest.h>

#include "text/glsl_lexer.h"

namespace vkp::text {
namespace {

std::string kinds(const std::string& line, LexState& st) {
    std::string out;
    for (const Token& t : lexGlslLine(line, st)) {
        if (t.kind == TokenKind::Space) continue;
        static const char* names[] = {"id",  "kw",      "type", "builtin", "fn",
                                      "num", "comment", "pre",  "punct",   "space"};
        out += std::string(names[static_cast<int>(t.kind)]) + ":" +
               line.substr(t.begin, t.end - t.begin) + " ";
    }
    return out;
}

TEST(GlslLexerTest, ClassifiesTheTokensOfAKernelLine) {
    LexState st;
    EXPECT_EQ(kinds("uint i = gl_GlobalInvocationID.x;", st),
              "type:uint id:i punct:= builtin:gl_GlobalInvocationID punct:. id:x punct:; ");
    EXPECT_EQ(kinds("layout(set = 0, binding = 1) buffer R { float r[]; };", st),
              "kw:layout punct:( kw:set punct:= num:0 punct:, kw:binding punct:= num:1 punct:) "
              "kw:buffer id:R punct:{ type:float id:r punct:[]; punct:}; ");
    EXPECT_EQ(kinds("barrier(); x = 1.5e3f + 0x1Fu;", st),
              "fn:barrier punct:(); id:x punct:= num:1.5e3f punct:+ num:0x1Fu punct:; ");
}

TEST(GlslLexerTest, CommentsAndPreprocessorLines) {
    LexState st;
    EXPECT_EQ(kinds("#version 450 // the version", st),
              "pre:#version 450  comment:// the version ");
    EXPECT_EQ(kinds("a /* b */ c", st), "id:a comment:/* b */ id:c ");
    EXPECT_EQ(kinds("x /* starts", st), "id:x comment:/* starts ");
    EXPECT_TRUE(st.inBlockComment);
    EXPECT_EQ(kinds("still inside */ y", st), "comment:still inside */ id:y ");
    EXPECT_FALSE(st.inBlockComment);
}

TEST(GlslLexerTest, TokensCoverTheWholeLine) {
    LexState st;
    std::string line = "  for (uint k = 0u; k < N; ++k) { acc += a[k] * b[k]; } // \xE2\x9C\x93";
    int at = 0;
    for (const Token& t : lexGlslLine(line, st)) {
        EXPECT_EQ(t.begin, at);
        at = t.end;
    }
    EXPECT_EQ(at, static_cast<int>(line.size()));
}

} // namespace
} // namespace vkp::text
