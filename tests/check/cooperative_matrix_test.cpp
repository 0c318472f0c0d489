// A puzzle for devices with cooperative matrices (tensor cores), on lavapipe, which has none:
// refused before it is compiled (pack check skips it: tests/classroom), its expected values what a
// device's own 16-bit conversions give, its cases and its rule against kernels without them; and,
// where this build's glslang knows the extension, reflected as a use of them and checked untraced.
#include <gtest/gtest.h>

#include <algorithm>

#include "base/source_text.h"
#include "base/text_file.h"
#include "check/check.h"
#include "check/compile_stage.h"
#include "gpu/device_runner.h"
#include "shader/reflect.h"
#include "support/engines.h"

namespace vkp {
namespace {

using test::engines;
using test::puzzleNamed;

std::string solutionText(const Puzzle& p) {
    auto text = readTextFile(p.solutionPath);
    EXPECT_TRUE(text.ok()) << p.solutionPath;
    return text ? *text : "";
}

TEST(CooperativeMatrix, LavapipeHasNone) {
    ASSERT_TRUE(engines().gpu);
    EXPECT_FALSE(engines().gpu->info().shaderFeatures & kCooperativeMatrix)
        << engines().gpu->info().name << " now has cooperative matrices: these tests assume not";
}

// Before the compiler sees it (Debian 12's glslang does not know the extension): an error at
// the #extension line that names what is missing and where, and nothing runs.
TEST(CooperativeMatrix, AKernelThatEnablesThemIsRefusedBeforeItIsCompiled) {
    ASSERT_TRUE(engines().gpu);
    const Puzzle& p = puzzleNamed("matmul-tensor-cores");
    CheckOptions o;
    o.trace = true;
    CheckReport r =
        checkKernel(engines().compiler, *engines().gpu, p, solutionText(p), "solution.comp", o);
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->kind, ErrorKind::Device);
    EXPECT_NE(r.error->message.find("it was not compiled"), std::string::npos) << r.error->message;
    ASSERT_EQ(r.diagnostics.size(), 1u);
    const Diagnostic& d = r.diagnostics[0];
    EXPECT_EQ(sourceLine(solutionText(p), d.line),
              "#extension GL_KHR_cooperative_matrix : require");
    EXPECT_NE(d.message.find("cooperative matrices"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find(engines().gpu->info().name), std::string::npos) << d.message;
    EXPECT_TRUE(r.cases.empty());
    // A comment that names the extension is no #extension line.
    std::string commented = "// GL_KHR_cooperative_matrix is not used here\n" + solutionText(p);
    r = checkKernel(engines().compiler, *engines().gpu, p, commented, "solution.comp", o);
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(sourceLine(commented, r.diagnostics[0].line),
              "#extension GL_KHR_cooperative_matrix : require");
}

// The puzzle without its rule (`uses`), so that kernels without cooperative matrices run.
Puzzle withoutTheRule() {
    Puzzle p = puzzleNamed("matmul-tensor-cores");
    p.rules.clear();
    return p;
}

CheckReport checkFile(const Puzzle& p, const std::string& name) {
    std::string path = test::sourceDir() + "/tests/data/tensor-cores/" + name;
    auto text = readTextFile(path);
    EXPECT_TRUE(text.ok()) << path;
    return checkKernel(engines().compiler, *engines().gpu, p, text ? *text : "", path, {});
}

// The puzzle's expected values round each input to a 16-bit float (matmul_f16): a kernel that
// converts the solution's tiles to float16_t in shared memory and sums in 32-bit floats passes
// every case, so the op rounds as the device converts. (It does not use the tensor cores: the
// puzzle's rule stops it, see below; here the rule is taken away.)
TEST(CooperativeMatrix, TheExpectedValuesAreWhatADevicesHalfConversionsGive) {
    ASSERT_TRUE(engines().gpu);
    Puzzle p = withoutTheRule();
    CheckReport r = checkFile(p, "half-inputs-float-sums.comp");
    EXPECT_TRUE(r.allPass()) << (r.error ? r.error->message : "") << " " << r.passCount() << " of "
                             << r.cases.size() << " pass";
    EXPECT_EQ(r.cases.size(), p.cases.size());
}

// The cases catch 32-bit math on their own: sums of the 32-bit inputs, or of halves in halves,
// are wrong in every case but the one of whole numbers (which are halves already).
TEST(CooperativeMatrix, TheCasesCatchThirtyTwoBitInputsAndHalfSums) {
    ASSERT_TRUE(engines().gpu);
    Puzzle p = withoutTheRule();
    for (const char* name : {"fp32.comp", "half-sums.comp"}) {
        CheckReport r = checkFile(p, name);
        ASSERT_EQ(r.reached, StageKind::Done) << name;
        ASSERT_EQ(r.cases.size(), p.cases.size()) << name;
        for (size_t i = 0; i < r.cases.size(); ++i) {
            bool wholeNumbers = p.cases[i].name.find("random integers") != std::string::npos;
            EXPECT_EQ(r.cases[i].pass, wholeNumbers) << name << ": case " << i + 1;
        }
    }
}

// The statement's rule: a kernel that multiplies without cooperative matrices (right values or
// not) is stopped on its compiled code, quoting the rule, before any case runs.
TEST(CooperativeMatrix, TheRuleStopsAKernelWithoutThemBeforeItRuns) {
    ASSERT_TRUE(engines().gpu);
    const Puzzle& p = puzzleNamed("matmul-tensor-cores");
    ASSERT_EQ(p.rules.size(), 1u);
    EXPECT_EQ(p.rules[0].check, RuleCheckKind::Uses);
    for (const char* name : {"half-inputs-float-sums.comp", "fp32.comp"}) {
        CheckReport r = checkFile(p, name);
        EXPECT_TRUE(r.cases.empty()) << name;
        ASSERT_EQ(r.diagnostics.size(), 1u) << name;
        const Diagnostic& d = r.diagnostics[0];
        EXPECT_EQ(d.severity, SeverityKind::Error);
        EXPECT_NE(d.message.find("the kernel uses no cooperative matrices"), std::string::npos)
            << d.message;
        EXPECT_NE(d.message.find("the statement says: \"" + p.rules[0].text + "\""),
                  std::string::npos)
            << d.message;
    }
}

// Where glslang knows the extension (Debian 13's 15.x): the compiled solution is seen to use
// cooperative matrices from their first line, and a traced check is not instrumented.
TEST(CooperativeMatrix, ACompiledKernelUsesThemAndIsNotTraced) {
    const Puzzle& p = puzzleNamed("matmul-tensor-cores");
    std::string text = solutionText(p);
    CompileResult compiled = engines().compiler.compile(text, "solution.comp", {true});
    if (!compiled.ok()) {
        ASSERT_FALSE(compiled.diagnostics.empty());
        std::string why = compiled.diagnostics[0].message;
        ASSERT_NE(why.find("GL_KHR_cooperative_matrix"), std::string::npos) << why;
        GTEST_SKIP() << "this build's glslang does not know GL_KHR_cooperative_matrix: " << why;
    }
    auto iface = reflectKernel(compiled.spirv);
    ASSERT_TRUE(iface.ok()) << iface.error().message;
    auto use =
        std::find_if(iface->numberUses.begin(), iface->numberUses.end(),
                     [](const KernelFeatureUse& u) { return u.feature == kCooperativeMatrix; });
    ASSERT_NE(use, iface->numberUses.end());
    std::string first = sourceLine(text, static_cast<int>(use->line));
    EXPECT_TRUE(first.find("SUMS") != std::string::npos ||
                first.find("coopMat") != std::string::npos)
        << "first used at line " << use->line << ": " << first;
    CheckOptions o;
    o.trace = true;
    CheckReport r;
    auto kernels = compileProgram(engines().compiler, p, {{"kernel", text, "solution.comp"}}, o, r);
    ASSERT_EQ(kernels.size(), 1u) << (r.error ? r.error->message : "");
    EXPECT_NE(r.untraced.find("cooperative matrices"), std::string::npos) << r.untraced;
    EXPECT_EQ(r.timing.instrumentMs, 0) << "not instrumented";
    EXPECT_FALSE(hasErrors(r.diagnostics)) << "the solution keeps the statement's rule";
    // The starter too (its accumulators are cooperative matrices), so that it runs and fails on
    // its values where the device has them, as pack check asks of a starter.
    auto starter = readTextFile(p.starterPath);
    ASSERT_TRUE(starter.ok()) << p.starterPath;
    CheckReport s;
    auto starterKernels =
        compileProgram(engines().compiler, p, {{"kernel", *starter, "starter.comp"}}, o, s);
    EXPECT_EQ(starterKernels.size(), 1u) << (s.diagnostics.empty() ? "" : s.diagnostics[0].str());
    EXPECT_FALSE(hasErrors(s.diagnostics)) << s.diagnostics[0].str();
}

} // namespace
} // namespace vkp
