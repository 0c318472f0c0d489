// base/source_text: the condition a line of a kernel runs under, read from the text (the
// efficiency lens quotes it where the lanes of a subgroup split), and the other text helpers.
#include <gtest/gtest.h>

#include "base/source_text.h"

namespace vkp {
namespace {

// "keyword@line: condition", or "none".
std::string conditionOf(const std::string& text, int line) {
    auto c = enclosingCondition(text, line);
    if (!c) return "none";
    return c->keyword + "@" + std::to_string(c->line) + ": " + c->condition;
}

TEST(FirstLineMatching, TheFirstMatchingLineCountsFromOne) {
    const std::string text = "#version 450\nshared uint bins[BINS];\nshared uint more[4];\n";
    EXPECT_EQ(firstLineMatching(text, std::regex("\\bshared\\b")), 2);
    EXPECT_EQ(firstLineMatching(text, std::regex("more\\s*\\[")), 3);
    EXPECT_EQ(firstLineMatching(text, std::regex("binding")), 0);
}

// Two declarations of one binding (a float view and a vec4 view): each name finds its own line;
// a name on no such line, or none, finds the binding's first; a binding declared nowhere, 0.
TEST(BindingDeclarationLine, TheLineWithTheBindingAndTheName) {
    const std::string text = "#version 450\n"
                             "layout(set = 0, binding = 0) buffer A { float a[]; };\n"
                             "layout(set = 0, binding = 0) buffer A4 { vec4 a4[]; };\n"
                             "layout(set = 0, binding = 10) buffer R { float result[]; };\n";
    EXPECT_EQ(bindingDeclarationLine(text, 0, "a"), 2);
    EXPECT_EQ(bindingDeclarationLine(text, 0, "a4"), 3);
    EXPECT_EQ(bindingDeclarationLine(text, 0, "b"), 2);
    EXPECT_EQ(bindingDeclarationLine(text, 0, ""), 2);
    EXPECT_EQ(bindingDeclarationLine(text, 10, "result"), 4);
    EXPECT_EQ(bindingDeclarationLine(text, 1, "a"), 0); // binding = 10 is not binding = 1
}

TEST(EnclosingCondition, TheInnermostIfOfABracedBody) {
    const std::string k = "void main() {\n"               // 1
                          "    uint i = id();\n"          // 2
                          "    if (i < N) {\n"            // 3
                          "        out[i] = a[i];\n"      // 4
                          "        if (i % 2u == 0u) {\n" // 5
                          "            out[i] += 1.0;\n"  // 6
                          "        }\n"                   // 7
                          "        out[i] *= 2.0;\n"      // 8
                          "    }\n"                       // 9
                          "    out[0] = 0.0;\n"           // 10
                          "}\n";
    EXPECT_EQ(conditionOf(k, 2), "none");
    EXPECT_EQ(conditionOf(k, 4), "if@3: i < N");
    EXPECT_EQ(conditionOf(k, 6), "if@5: i % 2u == 0u");
    EXPECT_EQ(conditionOf(k, 8), "if@3: i < N"); // after the inner block closed
    EXPECT_EQ(conditionOf(k, 10), "none");
    // A header line belongs to what is around it: its condition's reads run before the branch.
    EXPECT_EQ(conditionOf(k, 5), "if@3: i < N");
    EXPECT_EQ(conditionOf(k, 3), "none");
}

TEST(EnclosingCondition, OneStatementBodiesOnTheSameOrTheNextLine) {
    const std::string k = "void main() {\n"                   // 1
                          "    if (i < N) out[i] = a[i];\n"   // 2
                          "    if (i >= 4u)\n"                // 3
                          "        out[i] = 0.0;\n"           // 4
                          "    out[1] = 1.0;\n"               // 5
                          "    if (a) if (b) x = 1; y = 2;\n" // 6
                          "}\n";
    EXPECT_EQ(conditionOf(k, 2), "if@2: i < N");
    EXPECT_EQ(conditionOf(k, 4), "if@3: i >= 4u");
    EXPECT_EQ(conditionOf(k, 5), "none"); // the one statement ended at its ';'
    EXPECT_EQ(conditionOf(k, 6), "if@6: b");
}

TEST(EnclosingCondition, ElseQuotesItsIfAndElseIfItsOwn) {
    const std::string k = "void main() {\n"               // 1
                          "    if (tid < 16u) {\n"        // 2
                          "        x = 1;\n"              // 3
                          "    } else if (tid < 24u) {\n" // 4
                          "        x = 2;\n"              // 5
                          "    } else {\n"                // 6
                          "        x = 3;\n"              // 7
                          "    }\n"                       // 8
                          "    if (p) y = 1;\n"           // 9
                          "    else\n"                    // 10
                          "        y = 2;\n"              // 11
                          "}\n";
    EXPECT_EQ(conditionOf(k, 3), "if@2: tid < 16u");
    EXPECT_EQ(conditionOf(k, 5), "if@4: tid < 24u");
    EXPECT_EQ(conditionOf(k, 7), "else@4: tid < 24u");
    EXPECT_EQ(conditionOf(k, 11), "else@9: p");
}

TEST(EnclosingCondition, LoopsGiveTheirConditionAndForItsMiddlePart) {
    const std::string k = "void main() {\n"                            // 1
                          "    for (uint s = 1u; s < WG; s *= 2u) {\n" // 2
                          "        if (tid % (2u * s) == 0u)\n"        // 3
                          "            tile[tid] += tile[tid + s];\n"  // 4
                          "        barrier();\n"                       // 5
                          "    }\n"                                    // 6
                          "    while (k < n)\n"                        // 7
                          "    {\n"                                    // 8
                          "        k += a[k];\n"                       // 9
                          "    }\n"                                    // 10
                          "    do {\n"                                 // 11
                          "        k -= 1;\n"                          // 12
                          "    } while (k > 0);\n"                     // 13
                          "    z = 1;\n"                               // 14
                          "}\n";
    EXPECT_EQ(conditionOf(k, 4), "if@3: tid % (2u * s) == 0u");
    EXPECT_EQ(conditionOf(k, 5), "for@2: s < WG");
    EXPECT_EQ(conditionOf(k, 9), "while@7: k < n"); // the brace on the next line
    EXPECT_EQ(conditionOf(k, 12), "none");          // a do body runs at least once: no condition
    EXPECT_EQ(conditionOf(k, 14), "none");
}

TEST(EnclosingCondition, CommentsStringsAndMultiLineConditions) {
    const std::string k = "void main() {\n"                             // 1
                          "    // if (fake) {\n"                        // 2
                          "    /* while (x) { */\n"                     // 3
                          "    if (i < N &&\n"                          // 4
                          "        a[i] > 0.0) { // the read above\n"   // 5
                          "        debugPrintfEXT(\"if (%d) {\", i);\n" // 6
                          "        out[i] = 1.0;\n"                     // 7
                          "    }\n"                                     // 8
                          "}\n";
    EXPECT_EQ(conditionOf(k, 2), "none");
    EXPECT_EQ(conditionOf(k, 5), "none"); // inside the header: runs before the branch
    EXPECT_EQ(conditionOf(k, 7), "if@4: i < N && a[i] > 0.0");
    EXPECT_EQ(conditionOf(k, 6), "if@4: i < N && a[i] > 0.0");
}

TEST(EnclosingCondition, TextItCannotReadSaysNothing) {
    EXPECT_EQ(conditionOf("if (a < b {\n x = 1;\n", 2), "none"); // unclosed parenthesis
    EXPECT_EQ(conditionOf("x = 1;\n", 5), "none");               // past the end
    EXPECT_EQ(conditionOf("x = 1;\n", 0), "none");
    EXPECT_EQ(conditionOf("}}}\nif (c) x = 1;\n", 2), "if@2: c"); // stray braces
}

TEST(SourceText, LinesAndCodeWithoutLayout) {
    EXPECT_EQ(sourceLine("a\nb\nc", 2), "b");
    EXPECT_EQ(sourceLine("a\nb", 3), "");
    EXPECT_EQ(codeWithoutCommentsOrLayout("uint  x = 1; // one\n/* two */ uint y;"),
              "uint x=1;uint y;");
}

} // namespace
} // namespace vkp
