// The real shaderc compiler: SPIR-V out, and diagnostics that point at the learner's own lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "shader/compiler.h"
#include "shader/spirv_module.h"
#include "support/crashing_kernel.h"

#include <unistd.h>

namespace vkp {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;

const char* kValidKernel = R"(#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    result[i] = a[i] + 10.0;
}
)";

bool hasOpcode(const std::vector<uint32_t>& spirv, uint32_t opcode) {
    auto m = SpirvModule::parse(spirv);
    if (!m.ok()) return false;
    const auto& ins = m->instructions();
    return std::any_of(ins.begin(), ins.end(),
                       [&](const SpirvInstruction& i) { return uint32_t(i.opcode()) == opcode; });
}

class CompilerTest : public ::testing::Test {
  protected:
    Compiler compiler;
};

TEST_F(CompilerTest, ValidKernelCompilesToSpirv) {
    CompileResult r = compiler.compile(kValidKernel, "map.comp");
    ASSERT_TRUE(r.ok());
    ASSERT_GT(r.spirv.size(), 5u);
    EXPECT_EQ(r.spirv[0], kSpirvMagic);
    EXPECT_EQ(r.spirv[1], 0x00010500u); // SPIR-V 1.5, as the Vulkan 1.2 target asks
    EXPECT_FALSE(hasErrors(r.diagnostics));
    EXPECT_TRUE(r.diagnostics.empty());
}

TEST_F(CompilerTest, UndeclaredIdentifierPointsAtTheToken) {
    const std::string src = "#version 450\n"
                            "layout(local_size_x_id = 0) in;\n"
                            "layout(set = 0, binding = 0) buffer Result { float result[]; };\n"
                            "void main() {\n"
                            "    result[gl_GlobalInvocationID.x] = missingValue;\n"
                            "}\n";
    CompileResult r = compiler.compile(src, "kernels/my.comp");
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(r.spirv.empty());
    ASSERT_FALSE(r.diagnostics.empty());
    const Diagnostic& d = r.diagnostics[0];
    EXPECT_EQ(d.severity, SeverityKind::Error);
    EXPECT_EQ(d.file, "kernels/my.comp");
    EXPECT_EQ(d.line, 5);
    EXPECT_EQ(d.column, 39); // "    result[gl_GlobalInvocationID.x] = " is 38 characters
    EXPECT_EQ(d.message, "'missingValue': undeclared identifier");
    EXPECT_EQ(d.str(), "kernels/my.comp:5:39: error: 'missingValue': undeclared identifier");
    EXPECT_TRUE(hasErrors(r.diagnostics));
}

TEST_F(CompilerTest, ColumnOfATokenThatAlsoAppearsInsideAnEarlierWord) {
    // BUG (src/shader/compiler.cpp, columnOf): the column is the first *substring* match of the
    // quoted token on the line, not a whole-word match. For an undeclared `n` in
    // "    uint x = i + n;" it reports column 7 (the 'n' inside "uint"), not 18. Short names
    // (i, n, k, x) are exactly what learners mistype, so the caret lands on the wrong word.
    const std::string src =
        "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    uint i = 0;\n"
        "    uint x = i + n;\n}\n";
    CompileResult r = compiler.compile(src, "k.comp");
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].message, "'n': undeclared identifier");
    EXPECT_EQ(r.diagnostics[0].line, 5);
    EXPECT_EQ(r.diagnostics[0].column, 18);
}

TEST_F(CompilerTest, TypeMismatchReadsLikeGlsl) {
    // glslang says "'=' :  cannot convert from ' temp highp float' to ' temp highp int'"; the
    // tidied message keeps only the GLSL type names.
    const std::string src =
        "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    float f = 1.5;\n"
        "    int x = f;\n}\n";
    CompileResult r = compiler.compile(src, "k.comp");
    EXPECT_FALSE(r.ok());
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].line, 5);
    EXPECT_EQ(r.diagnostics[0].column, 11);
    EXPECT_EQ(r.diagnostics[0].message, "'=': cannot convert from 'float' to 'int'");
}

TEST_F(CompilerTest, LiteralTypeMismatchKeepsConst) {
    // For a literal glslang's type is "const float"; the tidier keeps the "const" (it is what
    // the learner wrote: a constant), so the text is not exactly "from 'float'".
    const std::string src =
        "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    int x = 1.0;\n}\n";
    CompileResult r = compiler.compile(src, "k.comp");
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].line, 4);
    EXPECT_EQ(r.diagnostics[0].message, "'=': cannot convert from 'const float' to 'int'");
    for (const char* noise : {"temp", "highp", "layout(", "  "})
        EXPECT_EQ(r.diagnostics[0].message.find(noise), std::string::npos) << noise;
}

// glslang notices a missing ';' at the next token, on the next line, and says so in its grammar's
// words ("'' : syntax error, unexpected RIGHT_BRACE, expecting COMMA or SEMICOLON"). The
// diagnostic goes to the end of the line that lacks the ';', in plain words.
TEST_F(CompilerTest, AMissingSemicolonIsReportedAtTheEndOfItsLine) {
    const std::string src =
        "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    uint x = 1\n}\n";
    CompileResult r = compiler.compile(src, "k.comp");
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].line, 4);
    EXPECT_EQ(r.diagnostics[0].column, 15); // just after "    uint x = 1"
    EXPECT_EQ(r.diagnostics[0].message,
              "missing ';' at the end of this line (the next line starts with '}')");

    // A comment after the statement, and a comment-only line before the next statement.
    const std::string commented =
        "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    uint x = 1  // one\n"
        "    // then\n    x = x * 2u;\n}\n";
    r = compiler.compile(commented, "k.comp");
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].line, 4);
    EXPECT_EQ(r.diagnostics[0].column, 15);
    EXPECT_EQ(r.diagnostics[0].message,
              "missing ';' at the end of this line (the next line starts with a name)");
}

// When the line before ends with an operator, the statement goes on: no ';' is missing there.
// The error stays where glslang found it, with the tokens named as they are written.
TEST_F(CompilerTest, OtherSyntaxErrorsNameTheTokensAsWritten) {
    const std::string goesOn = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    "
                               "uint x = 1 +\n    2 x = 3;\n}\n";
    CompileResult r = compiler.compile(goesOn, "k.comp");
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].line, 5);
    EXPECT_EQ(r.diagnostics[0].message, "syntax error: found a name where ',' or ';' was expected");

    const std::string paren = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    uint "
                              "x = 1;\n    if (x < 2u {\n        x = 3;\n    }\n}\n";
    r = compiler.compile(paren, "k.comp");
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].line, 5);
    EXPECT_EQ(r.diagnostics[0].column, 16); // the '{'
    EXPECT_EQ(r.diagnostics[0].message, "syntax error: found '{' where ')' or ',' was expected");

    const std::string stray =
        "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    uint x = 1 +;\n}\n";
    r = compiler.compile(stray, "k.comp");
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].line, 4);
    EXPECT_EQ(r.diagnostics[0].column, 17);
    EXPECT_EQ(r.diagnostics[0].message, "syntax error: ';' was not expected here");
    for (const Diagnostic& d : r.diagnostics)
        EXPECT_EQ(d.message.rfind("''", 0), std::string::npos) << d.message;
}

// The kernel ends with a block open: the diagnostic points at the '{' that lacks its '}', read
// from the indentation when a later '}' closed an outer block instead.
// A shared array sized by a specialization constant has the constant's default size (1 here) when
// glslang checks constant indexes; its "'[' : array index out of range '3'" says neither which
// array nor why. The diagnostic names the array, the constant and its default, and what to do
// instead. The explanation reads declarations with std::regex, which recurses as it matches: a
// declaration stretched over a megabyte of spaces is left unread (no explanation for it), never a
// crash.
TEST_F(CompilerTest, AConstantIndexExplanationSurvivesAMegabyteLongDeclaration) {
    const std::string src = "#version 450\n"
                            "layout(local_size_x_id = 0) in;\n"
                            "layout(constant_id = 3) const uint SHARED_SIZE" +
                            std::string(1 << 20, ' ') +
                            "= 1;\n"
                            "layout(set = 0, binding = 0) buffer Result { float result[]; };\n"
                            "shared float cache[SHARED_SIZE];\n"
                            "void main() { result[gl_GlobalInvocationID.x] = cache[3]; }\n";
    CompileResult r = compiler.compile(src, "k.comp");
    EXPECT_FALSE(r.ok());
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].line, 6);
    EXPECT_NE(r.diagnostics[0].message.find("out of range"), std::string::npos)
        << r.diagnostics[0].message;
}

TEST_F(CompilerTest, AConstantIndexPastASpecConstantSizeExplainsTheDefault) {
    const std::string src = "#version 450\n"
                            "layout(local_size_x_id = 0) in;\n"
                            "layout(constant_id = 3) const uint SHARED_SIZE = 1;\n"
                            "layout(constant_id = 4) const uint TILE = 2;\n"
                            "layout(set = 0, binding = 0) buffer Result { float result[]; };\n"
                            "shared float cache[SHARED_SIZE];\n"
                            "shared float tile[TILE][TILE];\n"
                            "void main() {\n"
                            "    uint i = gl_GlobalInvocationID.x;\n"
                            "    result[i] = cache[3] + tile[1][2];\n"
                            "}\n";
    CompileResult r = compiler.compile(src, "k.comp");
    EXPECT_FALSE(r.ok());
    ASSERT_EQ(r.diagnostics.size(), 2u) << r.diagnostics[0].str();
    const Diagnostic& d = r.diagnostics[0];
    EXPECT_EQ(d.line, 10);
    EXPECT_EQ(d.column, 17); // at "cache", not at result's '['
    EXPECT_EQ(
        d.message,
        "index 3 is out of range for 'cache': its size SHARED_SIZE is a specialization constant "
        "whose "
        "default is 1 in the compiler's view (the test case sets the real size only when the "
        "kernel "
        "runs), so constant indexes past it are rejected. Use an index computed at run time (from "
        "gl_LocalInvocationID.x, say), or give SHARED_SIZE a larger default");
    const Diagnostic& second = r.diagnostics[1]; // the second dimension of a 2D array, default 2
    EXPECT_EQ(second.column, 28);
    EXPECT_NE(second.message.find("index 2 is out of range for 'tile': its size TILE is a "
                                  "specialization constant whose default is 2"),
              std::string::npos)
        << second.message;
}

// An index out of range of a fixed-size array keeps glslang's words: no specialization constant
// is involved.
TEST_F(CompilerTest, AConstantIndexPastAFixedSizeIsLeftAsGlslangSaysIt) {
    const std::string src = "#version 450\n"
                            "layout(local_size_x_id = 0) in;\n"
                            "layout(set = 0, binding = 0) buffer Result { float result[]; };\n"
                            "shared float cache[4];\n"
                            "void main() {\n"
                            "    result[0] = cache[7];\n"
                            "}\n";
    CompileResult r = compiler.compile(src, "k.comp");
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].message, "'[': array index out of range '7'");
}

TEST_F(CompilerTest, AnUnclosedBlockPointsAtItsBrace) {
    const std::string inner =
        "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    uint x = 1;\n"
        "    if (x < 2u) {\n        x = 3;\n\n}\n";
    CompileResult r = compiler.compile(inner, "k.comp");
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].line, 5);
    EXPECT_EQ(r.diagnostics[0].column, 17);
    EXPECT_EQ(r.diagnostics[0].message, "this '{' is never closed: a '}' is missing");

    const std::string outer =
        "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    uint x = 1; // {\n";
    r = compiler.compile(outer, "k.comp");
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].line, 3); // the brace in the comment does not count
    EXPECT_EQ(r.diagnostics[0].column, 13);
}

// `float half = ...`: glslang says 'half' is reserved, then stops and reports the end of the
// kernel on that line; the learner gets the first, said plainly, and not the second.
TEST_F(CompilerTest, AReservedWordAsANameIsOneErrorThatSaysSo) {
    const std::string src = "#version 450\nlayout(local_size_x = 1) in;\n"
                            "layout(set = 0, binding = 0) buffer R { float result[]; };\n"
                            "void main() {\n    float half = 0.5;\n    result[0] = half;\n}\n";
    CompileResult r = compiler.compile(src, "k.comp");
    ASSERT_EQ(r.diagnostics.size(), 1u) << r.diagnostics.back().message;
    EXPECT_EQ(r.diagnostics[0].line, 5);
    EXPECT_EQ(r.diagnostics[0].message,
              "'half' is a word GLSL keeps for itself (reserved), not a name: call it something "
              "else");
}

TEST_F(CompilerTest, MissingMainIsAnErrorAboutTheWholeKernel) {
    CompileResult r = compiler.compile(
        "#version 450\nlayout(local_size_x = 1) in;\nvoid notMain() {}\n", "k.comp");
    EXPECT_FALSE(r.ok());
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].line, 0);
    EXPECT_EQ(r.diagnostics[0].severity, SeverityKind::Error);
    EXPECT_NE(r.diagnostics[0].message.find("Missing entry point"), std::string::npos)
        << r.diagnostics[0].message;
    EXPECT_EQ(r.diagnostics[0].str().rfind("k.comp: error: ", 0), 0u) << r.diagnostics[0].str();
}

// Without a #version, or with a desktop version before 150, glslang dumps its 4500 lines of
// built-in declarations to stdout (into `check --json` output) before it fails. The compiler
// refuses those kernels itself, on the right line, and nothing reaches stdout.
TEST_F(CompilerTest, AMissingOrAncientVersionIsOneClearErrorAndNothingOnStdout) {
    struct Case {
        std::string source;
        int line, column;
        std::string says;
    } cases[] = {
        {"layout(local_size_x = 1) in;\nvoid main() {}\n", 1, 1,
         "must start with its GLSL version"},
        {"// my kernel\n/* a\n   block */\n\n  layout(local_size_x = 1) in;\nvoid main() {}\n", 5,
         3, "add the line #version 450"},
        {"", 1, 1, "must start with its GLSL version"},
        {"#version 110\nlayout(local_size_x = 1) in;\nvoid main() {}\n", 1, 1,
         "#version 110 is too old"},
        {"// old\n  # version 140 core\nlayout(local_size_x = 1) in;\nvoid main() {}\n", 2, 3,
         "#version 140 is too old"},
        {"#version 110 es\nvoid main() {}\n", 1, 1, "#version 110 es is too old"},
        {"#version\nvoid main() {}\n", 1, 1, "needs a version number"},
        {"#version abc\nvoid main() {}\n", 1, 1, "needs a version number"},
    };
    for (const Case& c : cases) {
        testing::internal::CaptureStdout();
        CompileResult r = compiler.compile(c.source, "k.comp");
        std::string printed = testing::internal::GetCapturedStdout();
        EXPECT_EQ(printed, "") << c.source;
        EXPECT_FALSE(r.ok());
        ASSERT_EQ(r.diagnostics.size(), 1u) << c.source;
        EXPECT_EQ(r.diagnostics[0].line, c.line) << c.source;
        EXPECT_EQ(r.diagnostics[0].column, c.column) << c.source;
        EXPECT_NE(r.diagnostics[0].message.find(c.says), std::string::npos)
            << r.diagnostics[0].message;
        EXPECT_NE(r.diagnostics[0].message.find("430 or newer"), std::string::npos)
            << r.diagnostics[0].message;
    }
    // Versions glslang handles itself still reach it, and its line-less "#version: ..." error is
    // put on the #version line.
    testing::internal::CaptureStdout();
    CompileResult r = compiler.compile(
        "// header\n#version 330\nlayout(local_size_x = 1) in;\nvoid main() {}\n", "k.comp");
    EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].line, 2) << r.diagnostics[0].str();
    EXPECT_NE(r.diagnostics[0].message.find("compute shaders require"), std::string::npos)
        << r.diagnostics[0].message;
    // ES 3.10 and the 1.00 of ES are not "desktop before 150".
    EXPECT_TRUE(
        compiler
            .compile("#version 310 es\nlayout(local_size_x = 1) in;\nvoid main() {}\n", "k.comp")
            .ok());
    CompileResult es100 = compiler.compile("#version 100\nvoid main() {}\n", "k.comp");
    ASSERT_FALSE(es100.diagnostics.empty());
    EXPECT_EQ(es100.diagnostics[0].message.find("too old"), std::string::npos)
        << es100.diagnostics[0].message;
}

TEST_F(CompilerTest, WarningsDoNotFailTheCompile) {
    const std::string src = "#version 450\n#extension GL_EXT_not_a_real_extension : "
                            "warn\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
    CompileResult r = compiler.compile(src, "k.comp");
    EXPECT_TRUE(r.ok());
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].severity, SeverityKind::Warning);
    EXPECT_EQ(r.diagnostics[0].line, 2);
    EXPECT_EQ(r.diagnostics[0].column, 1);
    EXPECT_NE(r.diagnostics[0].message.find("GL_EXT_not_a_real_extension"), std::string::npos);
    EXPECT_FALSE(hasErrors(r.diagnostics));
}

TEST_F(CompilerTest, DebugInfoAddsLineInstructions) {
    constexpr uint32_t kOpLine = 8;
    CompileResult plain = compiler.compile(kValidKernel, "map.comp");
    CompileOptions opts;
    opts.debugInfo = true;
    CompileResult debug = compiler.compile(kValidKernel, "map.comp", opts);
    ASSERT_TRUE(plain.ok() && debug.ok());
    EXPECT_FALSE(hasOpcode(plain.spirv, kOpLine));
    EXPECT_TRUE(hasOpcode(debug.spirv, kOpLine));
}

TEST_F(CompilerTest, WarmUpThenCompile) {
    compiler.warmUp();
    CompileResult r = compiler.compile(kValidKernel, "map.comp");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.spirv[0], kSpirvMagic);
    // The same compiler keeps working after an error.
    EXPECT_FALSE(compiler.compile("#version 450\nvoid main() { nope; }\n", "bad.comp").ok());
    EXPECT_TRUE(compiler.compile(kValidKernel, "map.comp").ok());
}

TEST_F(CompilerTest, GlslangRunsInTheHelperProcessNotInTheCaller) {
    ASSERT_TRUE(compiler.compile(kValidKernel, "map.comp").ok());
    EXPECT_GT(compiler.helperPid(), 0);
    EXPECT_NE(compiler.helperPid(), ::getpid());
}

TEST_F(CompilerTest, AKernelThatCrashesTheCompilerIsAnErrorOnItsLineAndTheNextCompileWorks) {
    ASSERT_TRUE(compiler.compile(kValidKernel, "map.comp").ok());
    CompileResult r = compiler.compile(test::crashingKernel(), "crash.comp");
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(r.compilerCrashed);
    ASSERT_EQ(r.diagnostics.size(), 1u);
    const Diagnostic& d = r.diagnostics[0];
    EXPECT_EQ(d.severity, SeverityKind::Error);
    EXPECT_EQ(d.file, "crash.comp");
    EXPECT_EQ(d.line, test::kCrashingLine);
    EXPECT_NE(d.message.find("the compiler crashed on this kernel"), std::string::npos)
        << d.message;
    EXPECT_NE(
        d.message.find("simplify the expression at line " + std::to_string(test::kCrashingLine)),
        std::string::npos)
        << d.message;
    EXPECT_EQ(compiler.restarts(), 0) << "the next call starts the new helper";
    CompileResult again = compiler.compile(kValidKernel, "map.comp");
    EXPECT_TRUE(again.ok());
    EXPECT_FALSE(again.compilerCrashed);
    EXPECT_EQ(compiler.restarts(), 1);
}

TEST(CompilerCrashDiagnostic, SaysSoWhenNoLineStandsOut) {
    Diagnostic d = compilerCrashDiagnostic(
        kValidKernel, "k.comp",
        Error{ErrorKind::Timeout, "it did not answer within 60 s and was stopped"});
    EXPECT_EQ(d.line, 0);
    EXPECT_NE(d.message.find("the compiler did not finish on this kernel"), std::string::npos)
        << d.message;
    EXPECT_NE(d.message.find("no line stands out"), std::string::npos) << d.message;
}

TEST_F(CompilerTest, ValidationRunsInTheHelperToo) {
    CompileResult r = compiler.compile(kValidKernel, "map.comp");
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(compiler.validate(r.spirv).ok());
    std::vector<uint32_t> junk = r.spirv;
    junk.resize(junk.size() / 2);
    Status bad = compiler.validate(junk);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("invalid SPIR-V"), std::string::npos) << bad.error().message;
}

// ---- parseCompilerMessages on hand-written text ----

TEST(ParseCompilerMessages, LinesSeveritiesAndColumns) {
    const std::string source = "#version 450\nvoid main() {\n    float y = foo * 2.0;\n}\n";
    const std::string text = "shaderc-name.comp:3: error: 'foo' : undeclared identifier\n"
                             "shaderc-name.comp:2: warning: 'main' : something odd\n"
                             "shaderc-name.comp:3: note: 'bar' : not on the line\n"
                             "shaderc-name.comp:40: error: 'foo' : past the end\n"
                             "shaderc-name.comp: error: '' : compilation terminated\n"
                             "3 errors generated.\n";
    auto ds = parseCompilerMessages(text, source, "mine.comp");
    ASSERT_EQ(ds.size(), 5u);
    for (const Diagnostic& d : ds)
        EXPECT_EQ(d.file, "mine.comp"); // the caller's name wins
    EXPECT_EQ(ds[0].severity, SeverityKind::Error);
    EXPECT_EQ(ds[0].line, 3);
    EXPECT_EQ(ds[0].column, 15);
    EXPECT_EQ(ds[0].message, "'foo': undeclared identifier");
    EXPECT_EQ(ds[1].severity, SeverityKind::Warning);
    EXPECT_EQ(ds[1].line, 2);
    EXPECT_EQ(ds[1].column, 6);
    EXPECT_EQ(ds[1].message, "'main': something odd");
    EXPECT_EQ(ds[2].severity, SeverityKind::Note);
    EXPECT_EQ(ds[2].column, 0); // 'bar' is not on line 3
    EXPECT_EQ(ds[3].line, 40);
    EXPECT_EQ(ds[3].column, 0); // no such line
    EXPECT_EQ(ds[4].line, 0);
    EXPECT_EQ(ds[4].column, 0);
    EXPECT_EQ(ds[4].message, "compilation terminated"); // glslang's empty token quote dropped
    EXPECT_TRUE(hasErrors(ds));
}

TEST(ParseCompilerMessages, TidiesGlslangTypeSpellings) {
    const std::string source = "a\nb\n";
    auto ds = parseCompilerMessages("k.comp:1: error: '=' :  cannot convert from ' temp highp "
                                    "float' to ' layout( column_major std430) temp highp int'  \n",
                                    source, "k.comp");
    ASSERT_EQ(ds.size(), 1u);
    EXPECT_EQ(ds[0].message, "'=': cannot convert from 'float' to 'int'");
}

TEST(ParseCompilerMessages, IgnoresTextThatIsNotADiagnostic) {
    EXPECT_TRUE(parseCompilerMessages("", "", "k.comp").empty());
    EXPECT_TRUE(parseCompilerMessages("1 error generated.\nrandom text\n", "", "k.comp").empty());
    auto warnings = parseCompilerMessages(
        "x.comp:1: warning: 'a' : w1\nx.comp:1: warning: 'a' : w2\n", "a\n", "k.comp");
    ASSERT_EQ(warnings.size(), 2u);
    EXPECT_FALSE(hasErrors(warnings));
}

} // namespace
} // namespace vkp
