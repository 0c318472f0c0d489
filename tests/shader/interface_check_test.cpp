// checkInterface: a real kernel (compiled and reflected) against a puzzle parsed from TOML.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "puzzle/puzzle_loader.h"
#include "shader/compiler.h"
#include "shader/interface_check.h"
#include "shader/reflect.h"
#include "support/engines.h"

namespace vkp {
namespace {

// Buffers a (float, 0), b (int, 1), result (float, 2); constant SIZE = id 3; cases run
// workgroups of 4 and of 8 threads in x.
const char* kPuzzleToml = R"(title = "Interface"
track = "classic"
order = 1
statement = "s"
hints = ["h"]

[[buffers]]
name = "a"
binding = 0
type = "float"
role = "input"

[[buffers]]
name = "b"
binding = 1
type = "int"
role = "input"

[[buffers]]
name = "result"
binding = 2
type = "float"
role = "output"

[[constants]]
name = "SIZE"
id = 3

[[cases]]
workgroup_size = [4]
workgroups = [1]
constants = { SIZE = 4 }
inputs.a = { shape = [4], fill = "iota" }
inputs.b = { shape = [4], fill = "iota" }
expected.result = { op = "add", args = ["a", "b"] }

[[cases]]
workgroup_size = [8]
workgroups = [2]
constants = { SIZE = 16 }
inputs.a = { shape = [16], fill = "iota" }
inputs.b = { shape = [16], fill = "iota" }
expected.result = { op = "add", args = ["a", "b"] }
)";

// The correct kernel, line by line; tests replace single lines (1-based) to break it.
const std::vector<std::string> kGoodLines = {
    "#version 450",                                                              // 1
    "layout(local_size_x_id = 0) in;",                                           // 2
    "layout(constant_id = 3) const uint SIZE = 1;",                              // 3
    "layout(set = 0, binding = 0) readonly buffer A { float a[]; };",            // 4
    "layout(set = 0, binding = 1) readonly buffer B { int b[]; };",              // 5
    "layout(set = 0, binding = 2) writeonly buffer Result { float result[]; };", // 6
    "",                                                                          // 7
    "void main() {}",                                                            // 8
};

std::string joinLines(const std::vector<std::string>& lines) {
    std::string s;
    for (const std::string& l : lines)
        s += l + "\n";
    return s;
}

// The good kernel with line `line` replaced.
std::string withLine(int line, const std::string& text) {
    std::vector<std::string> lines = kGoodLines;
    lines.at(line - 1) = text;
    return joinLines(lines);
}

class InterfaceCheck : public ::testing::Test {
  protected:
    void SetUp() override {
        auto p = parsePuzzle(kPuzzleToml, "interface/puzzle.toml", "01-interface");
        ASSERT_TRUE(p.ok()) << p.error().str();
        puzzle = *p;
    }

    std::vector<Diagnostic> check(const std::string& source, const Puzzle* other = nullptr) {
        static const Compiler compiler;
        CompileResult r = compiler.compile(source, "user.comp");
        EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].str()) << "\n"
                            << source;
        if (!r.ok()) return {};
        auto k = reflectKernel(r.spirv);
        EXPECT_TRUE(k.ok());
        if (!k.ok()) return {};
        auto ds = checkInterface(other ? *other : puzzle, *k, source, "user.comp");
        for (const Diagnostic& d : ds) {
            EXPECT_EQ(d.file, "user.comp");
            EXPECT_EQ(d.severity, SeverityKind::Error);
        }
        return ds;
    }

    // Exactly one diagnostic, on `line`, containing every fragment.
    void expectOne(const std::vector<Diagnostic>& ds, int line,
                   std::initializer_list<const char*> fragments) {
        ASSERT_EQ(ds.size(), 1u) << (ds.empty() ? "none"
                                                : ds[0].str() +
                                                      (ds.size() > 1 ? " | " + ds[1].str() : ""));
        EXPECT_EQ(ds[0].line, line) << ds[0].str();
        for (const char* f : fragments)
            EXPECT_NE(ds[0].message.find(f), std::string::npos)
                << "'" << f << "' in: " << ds[0].message;
    }

    Puzzle puzzle;
};

TEST_F(InterfaceCheck, CorrectKernelHasNoDiagnostics) {
    EXPECT_TRUE(check(joinLines(kGoodLines)).empty());
    // Also with a body that uses everything.
    std::vector<std::string> lines = kGoodLines;
    lines[7] = "void main() { uint i = gl_GlobalInvocationID.x; if (i < SIZE) result[i] = a[i] + "
               "float(b[i]); }";
    EXPECT_TRUE(check(joinLines(lines)).empty());
}

TEST_F(InterfaceCheck, TheRealStarterKernelsMatchTheirPuzzles) {
    PuzzleSet set = loadPuzzleSet(VKPUZZLES_SOURCE_DIR "/puzzles");
    ASSERT_FALSE(set.puzzles.empty());
    for (const Puzzle& p : set.puzzles)
        for (const std::string& path : {p.starterPath, p.solutionPath}) {
            if (!test::forEveryDevice(p)) continue;
            auto src = readTextFile(path);
            ASSERT_TRUE(src.ok()) << path;
            for (const Diagnostic& d : check(*src, &p))
                ADD_FAILURE() << path << ": " << d.str();
        }
}

TEST_F(InterfaceCheck, MissingBinding) {
    expectOne(check(withLine(5, "")), 0,
              {"does not declare the puzzle's input buffer 'b' (binding 1)",
               "add layout(set = 0, binding = 1) buffer ... { int b[]; };"});
}

TEST_F(InterfaceCheck, MissingOutputBinding) {
    expectOne(check(withLine(6, "")), 0, {"output buffer 'result' (binding 2)"});
}

TEST_F(InterfaceCheck, ExtraBinding) {
    expectOne(check(withLine(7, "layout(set = 0, binding = 9) buffer Extra { float extra[]; };")),
              7,
              {"binding 9 ('extra') is not one of this puzzle's buffers",
               "its bindings: a = 0, b = 1, result = 2"});
}

TEST_F(InterfaceCheck, WrongElementType) {
    expectOne(check(withLine(5, "layout(set = 0, binding = 1) readonly buffer B { uint b[]; };")),
              5, {"binding 1 ('b') holds uint elements, but the puzzle's buffer 'b' holds int"});
    expectOne(check(withLine(4, "layout(set = 0, binding = 0) readonly buffer A { int a[]; };")), 4,
              {"binding 0 ('a') holds int elements", "'a' holds float"});
}

TEST_F(InterfaceCheck, UniformBlockInsteadOfStorageBuffer) {
    expectOne(check(withLine(4, "layout(set = 0, binding = 0) uniform A { float a[4]; };")), 4,
              {"binding 0 ('a') is a uniform block", "'a' must be a storage buffer",
               "layout(set = 0, binding = 0) buffer ... { float a[]; };"});
}

// Images, textures, samplers and texel buffers are no buffers a puzzle gives: unbound, they
// crashed lavapipe (in the worker, or the CLI itself in process). Even one used nowhere, or one
// on a binding the puzzle's buffer has, is named at its line.
TEST_F(InterfaceCheck, ImagesSamplersAndTexelBuffersAreRejected) {
    expectOne(check(withLine(7, "layout(set = 0, binding = 5, r32f) uniform image2D img;")), 7,
              {"binding 5 ('img') is an image",
               "a puzzle gives its kernel storage buffers only (its bindings: a = 0, b = 1, "
               "result = 2)"});
    expectOne(check(withLine(7, "layout(set = 0, binding = 2) uniform sampler2D tex;")), 7,
              {"binding 2 ('tex') is a texture"});
    expectOne(check(withLine(7, "layout(set = 0, binding = 6) uniform samplerBuffer texels;")), 7,
              {"binding 6 ('texels') is a texel buffer"});
    expectOne(check(withLine(7, "layout(set = 0, binding = 7, r32ui) uniform uimageBuffer t;")), 7,
              {"binding 7 ('t') is a texel buffer"});
}

TEST_F(InterfaceCheck, BlockWithTwoMembers) {
    expectOne(
        check(withLine(
            6, "layout(set = 0, binding = 2) buffer Result { uint count; float result[]; };")),
        6,
        {"binding 2 ('count') must be a block holding exactly one runtime array of float",
         "(found uint)"});
}

TEST_F(InterfaceCheck, FixedSizeArrayIsNotARuntimeArray) {
    expectOne(
        check(withLine(4, "layout(set = 0, binding = 0) readonly buffer A { float a[16]; };")), 4,
        {"exactly one runtime array of float", "(found float[N])"});
}

TEST_F(InterfaceCheck, DescriptorSetOne) {
    // Two errors, by design of the checker: the set-1 binding is wrong, and set 0 then lacks 'a'.
    auto ds = check(withLine(4, "layout(set = 1, binding = 0) readonly buffer A { float a[]; };"));
    ASSERT_EQ(ds.size(), 2u);
    EXPECT_EQ(ds[0].line, 4);
    EXPECT_EQ(ds[0].message, "binding 0 ('a') is in descriptor set 1; puzzles use set 0");
    EXPECT_EQ(ds[1].line, 0);
    EXPECT_NE(ds[1].message.find("does not declare the puzzle's input buffer 'a'"),
              std::string::npos)
        << ds[1].message;
}

TEST_F(InterfaceCheck, UnknownConstantId) {
    expectOne(
        check(withLine(7, "layout(constant_id = 7) const uint COUNT = 1;")), 7,
        {"constant_id 7 ('COUNT') is not a constant of this puzzle", "(its constants: SIZE = 3)"});
}

TEST_F(InterfaceCheck, UnknownConstantIdInAPuzzleWithoutConstants) {
    Puzzle none = puzzle;
    none.constants.clear();
    expectOne(check(withLine(3, "layout(constant_id = 4) const uint N = 1;"), &none), 3,
              {"constant_id 4 ('N') is not a constant of this puzzle (it has none)"});
}

TEST_F(InterfaceCheck, ConstantIdZeroAsAUserConstant) {
    // With a fixed local size, id 0 is free in SPIR-V, so the kernel can declare it as a user
    // constant: the checker reports it as reserved. (Only case 1, 4 threads, so 4 fits.)
    Puzzle fourOnly = puzzle;
    fourOnly.cases.resize(1);
    std::vector<std::string> lines = kGoodLines;
    lines[1] = "layout(local_size_x = 4) in;";
    lines[2] = "layout(constant_id = 0) const uint N = 1;";
    expectOne(check(joinLines(lines), &fourOnly), 3,
              {"constant_id 0 ('N') is reserved for the workgroup size",
               "use local_size_x_id = 0 or another id"});
}

TEST_F(InterfaceCheck, ConstantIdZeroBesideLocalSizeXId) {
    // BUG (src/shader/reflect.cpp): with the usual `layout(local_size_x_id = 0) in;`, a user
    // constant `layout(constant_id = 0) const uint N` compiles, and reflectKernel erases it from
    // specConstants because its id is a local-size id. checkInterface then says nothing, and N
    // silently receives the workgroup width instead of being reported as reserved.
    auto ds = check(withLine(3, "layout(constant_id = 0) const uint N = 1;"));
    expectOne(ds, 3, {"constant_id 0 ('N') is reserved for the workgroup size"});
}

TEST_F(InterfaceCheck, FixedLocalSizeThatMismatchesACase) {
    expectOne(check(withLine(2, "layout(local_size_x = 4) in;")), 2,
              {"the kernel fixes local_size_x = 4, but case 2 runs workgroups of 8 in x",
               "declare layout(local_size_x_id = 0) in;"});
}

TEST_F(InterfaceCheck, FixedLocalSizeThatFitsEveryCaseIsAccepted) {
    Puzzle fourOnly = puzzle;
    fourOnly.cases.resize(1);
    EXPECT_TRUE(check(withLine(2, "layout(local_size_x = 4) in;"), &fourOnly).empty());
}

TEST_F(InterfaceCheck, MissingYIdWhenACaseIsTwoDimensional) {
    // Without local_size_y_id, y is a literal 1, which a [4, 2] workgroup cannot use.
    Puzzle twoD = puzzle;
    twoD.cases[0].workgroupSize = {4, 2, 1};
    twoD.cases.resize(1);
    expectOne(check(joinLines(kGoodLines), &twoD), 2,
              {"the kernel fixes local_size_y = 1, but case 1 runs workgroups of 2 in y",
               "local_size_y_id = 1"});
}

TEST_F(InterfaceCheck, LocalSizeIdMustMatchItsAxis) {
    expectOne(check(withLine(2, "layout(local_size_x_id = 5) in;")), 2,
              {"local_size_x_id must be 0", "not 5"});
}

TEST_F(InterfaceCheck, SeveralProblemsAreAllReported) {
    std::vector<std::string> lines = kGoodLines;
    lines[3] = "layout(set = 0, binding = 0) readonly buffer A { uint a[]; };"; // wrong type
    lines[4] = "";                                                              // b missing
    lines[6] = "layout(constant_id = 8) const uint EXTRA = 1;";                 // unknown id
    auto ds = check(joinLines(lines));
    ASSERT_EQ(ds.size(), 3u);
    EXPECT_EQ(ds[0].line, 4);
    EXPECT_NE(ds[0].message.find("holds uint elements"), std::string::npos);
    EXPECT_EQ(ds[1].line, 0);
    EXPECT_NE(ds[1].message.find("'b' (binding 1)"), std::string::npos);
    EXPECT_EQ(ds[2].line, 7);
    EXPECT_NE(ds[2].message.find("constant_id 8 ('EXTRA')"), std::string::npos);
}

} // namespace
} // namespace vkp

namespace vkp {
namespace {

// volatile_coherent rules: judged on the compiled kernel's decorations, at the declaration.
TEST_F(InterfaceCheck, AVolatileCoherentRuleNamesTheMissingQualifierAtTheDeclaration) {
    auto p = parsePuzzle(std::string(kPuzzleToml) +
                             "\n[[rules]]\ntext = \"read `a` as a volatile coherent buffer\"\n"
                             "volatile_coherent = [\"a\"]\n",
                         "interface/puzzle.toml", "01-interface");
    ASSERT_TRUE(p.ok()) << p.error().str();
    // Declared as the rule asks (either order): nothing to say, though b and result, which the
    // rule does not name, have no qualifier.
    EXPECT_TRUE(
        check(
            withLine(4, "layout(set = 0, binding = 0) volatile coherent buffer A { float a[]; };"),
            &*p)
            .empty());
    EXPECT_TRUE(
        check(
            withLine(4, "layout(set = 0, binding = 0) coherent volatile buffer A { float a[]; };"),
            &*p)
            .empty());
    // Neither, or coherent alone: named, on line 4, with the rule quoted.
    expectOne(check(joinLines(kGoodLines), &*p), 4,
              {"'a' (binding 0) is not declared volatile coherent",
               "the statement says: \"read `a` as a volatile coherent buffer\""});
    expectOne(
        check(withLine(4, "layout(set = 0, binding = 0) coherent buffer A { float a[]; };"), &*p),
        4, {"is not declared volatile:"});
    // volatile alone is coherent too (some glslang builds decorate it Coherent as well, Debian
    // 12's does not): the same answer from every build.
    EXPECT_TRUE(
        check(withLine(4, "layout(set = 0, binding = 0) volatile buffer A { float a[]; };"), &*p)
            .empty());
}

} // namespace
} // namespace vkp

namespace vkp {
namespace {

// Vector views (issue 53): a buffer may be declared as a runtime array of vec2 or vec4 of the
// puzzle's scalars (a of floats as vec4, b of ints as ivec2), and one binding twice, a scalar
// view beside a vector one. Whether a case's length suits the view is judged on the trace
// (judge/bounds.h), not here: a kernel that handles its tail with the scalar view works on any
// length.
TEST_F(InterfaceCheck, VectorViewsOfThePuzzlesScalarsAreAccepted) {
    std::vector<std::string> lines = kGoodLines;
    lines[3] = "layout(set = 0, binding = 0) readonly buffer A { vec4 a4[]; };";
    lines[4] = "layout(set = 0, binding = 1) readonly buffer B { ivec2 b2[]; };";
    lines[5] = "layout(set = 0, binding = 2) writeonly buffer Result { vec2 result2[]; };";
    EXPECT_TRUE(check(joinLines(lines)).empty());
    // Both views of a, one under the other.
    lines = kGoodLines;
    lines[6] = "layout(set = 0, binding = 0) readonly buffer A4 { vec4 a4[]; };";
    lines[7] = "void main() { uint i = gl_GlobalInvocationID.x; if (4 * i + 3 < SIZE) "
               "result[i] = dot(a4[i], vec4(1)); else if (i < SIZE) result[i] = a[i]; }";
    EXPECT_TRUE(check(joinLines(lines)).empty());
}

TEST_F(InterfaceCheck, AVectorViewOfTheWrongKindNamesTheVectorToUse) {
    expectOne(
        check(withLine(4, "layout(set = 0, binding = 0) readonly buffer A { ivec4 a4[]; };")), 4,
        {"binding 0 ('a4') holds ivec4 elements, but the puzzle's buffer 'a' holds float: read it "
         "as vec4"});
    expectOne(check(withLine(5, "layout(set = 0, binding = 1) readonly buffer B { uvec2 b2[]; };")),
              5, {"holds uvec2 elements", "'b' holds int: read it as ivec2"});
}

// The second view of a binding is named at its own line, not at the first view's.
TEST_F(InterfaceCheck, EachViewOfABindingIsCheckedAtItsOwnLine) {
    expectOne(
        check(withLine(7, "layout(set = 0, binding = 0) readonly buffer A4 { uvec4 a4[]; };")), 7,
        {"binding 0 ('a4') holds uvec4 elements", "read it as vec4"});
}

// vec3 is the view a learner tries for three values; a buffer lays it out 16 bytes an element,
// so it is refused with why. Other widths of vectors and arrays stay refused as before.
TEST_F(InterfaceCheck, AVec3ViewIsRefusedWithItsPadding) {
    expectOne(check(withLine(4, "layout(set = 0, binding = 0) readonly buffer A { vec3 a3[]; };")),
              4,
              {"exactly one runtime array of float, vec2 or vec4 (found vec3)",
               "a buffer pads each vec3 to 16 bytes, so use vec4 or vec2",
               "layout(set = 0, binding = 0) buffer ... { float a[]; };"});
    expectOne(check(withLine(5, "layout(set = 0, binding = 1) readonly buffer B { ivec3 b3[]; };")),
              5, {"runtime array of int, ivec2 or ivec4 (found ivec3)", "use ivec4 or ivec2"});
}

// std140 spaces a float array's elements 16 bytes apart, where the puzzle's data are packed: each
// index would read the wrong scalar.
TEST_F(InterfaceCheck, AStd140LayoutIsRefused) {
    expectOne(check(withLine(
                  4, "layout(std140, set = 0, binding = 0) readonly buffer A { float a[]; };")),
              4,
              {"binding 0 ('a')'s elements lie 16 bytes apart (a std140 layout?)",
               "is packed, one float every 4 bytes: declare it std430"});
    expectOne(
        check(
            withLine(5, "layout(std140, set = 0, binding = 1) readonly buffer B { ivec2 b2[]; };")),
        5,
        {"binding 1 ('b2')'s elements lie 16 bytes apart", "is packed, one ivec2 every 8 bytes"});
    EXPECT_TRUE(
        check(withLine(4, "layout(std430, set = 0, binding = 0) readonly buffer A { vec4 a4[]; };"))
            .empty());
}

} // namespace
} // namespace vkp
