// Data-driven over puzzles/: every puzzle loads and has varied cases, and the deliberately wrong
// kernels in tests/data/wrong fail, on a real device (lavapipe in CI). That every official
// solution passes and every starter fails is the content tier's: `pack check`, one CTest entry per
// puzzle (pack_check_FOLDER, classroom/pack_check.h), checks each once.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "check/check.h"
#include "check/kernel_text.h"
#include "gpu/context.h"
#include "puzzle/puzzle_loader.h"
#include "shader/compiler.h"
#include "support/engines.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

using test::engines;

std::string read(const std::string& path) {
    auto t = readTextFile(path);
    return t ? *t : std::string();
}

std::string describe(const CheckReport& r) {
    std::string s;
    for (const Diagnostic& d : r.diagnostics)
        s += d.str() + "\n";
    if (r.error) s += r.error->str() + "\n";
    for (const CaseOutcome& c : r.cases)
        s += "case " + std::to_string(c.index + 1) + (c.pass ? " pass" : " FAIL") +
             (c.error ? " " + c.error->message : "") + "\n";
    return s;
}

TEST(PuzzleSetTest, EveryPuzzleFolderLoads) {
    const PuzzleSet& set = engines().set;
    for (const Error& e : set.errors)
        ADD_FAILURE() << e.str();
    EXPECT_EQ(set.puzzles.size(), test::puzzleFolders().size());
    EXPECT_GE(set.puzzles.size(), 14u);
}

class PuzzleTest : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override {
        auto p = engines().set.find(GetParam());
        ASSERT_TRUE(p.ok()) << p.error().str();
        m_puzzle = *p;
    }
    const Puzzle* m_puzzle = nullptr;
};

TEST_P(PuzzleTest, HasEnoughVariedCases) {
    EXPECT_GE(m_puzzle->cases.size(), 3u);
    EXPECT_GE(m_puzzle->hints.size(), 2u);
    bool someRandom = false;
    for (const TestCase& c : m_puzzle->cases)
        for (const auto& d : c.data)
            someRandom |= d && (d->kind == DataSpec::Kind::Random ||
                                (d->kind == DataSpec::Kind::Values && d->values.size() > 4));
    EXPECT_TRUE(someRandom)
        << "at least one case should use random (or hand-picked, irregular) values";
}

INSTANTIATE_TEST_SUITE_P(Puzzles, PuzzleTest, ::testing::ValuesIn(test::puzzleFolders()),
                         [](const auto& info) { return test::paramName(info.param); });

// tests/data/wrong/*.comp: the first line names the puzzle ("// puzzle: slug"). Among the
// comment lines that follow, "// fails: case N" names a case that must fail (the case added to
// catch this mistake), and "// traced" checks it as `vkpuzzles check` and the app do, with the
// trace (for mistakes that show as an out-of-bounds access, a race or a limit, not in the values).
// "// finding: KIND" (a findingKindName: "rule", "read limit") says why those cases must fail:
// each has a finding of that kind, so a mistake whose values are right is caught by its check.
struct WrongKernelHeader {
    std::string slug;
    bool traced = false;
    std::vector<size_t> mustFail; // 1-based case numbers
    std::string finding;          // a findingKindName, or empty
};

bool hasFinding(const CaseOutcome& c, const std::string& kind) {
    auto in = [&](const std::shared_ptr<const TraceAnalysis>& a) {
        return a && std::any_of(a->findings.begin(), a->findings.end(),
                                [&](const Finding& f) { return findingKindName(f.kind) == kind; });
    };
    return in(c.analysis) ||
           std::any_of(c.dispatches.begin(), c.dispatches.end(),
                       [&](const DispatchTrace& dispatch) { return in(dispatch.analysis); });
}

WrongKernelHeader readHeader(const std::string& source) {
    WrongKernelHeader h;
    std::istringstream in(source);
    std::string line;
    while (std::getline(in, line) && line.rfind("//", 0) == 0) {
        if (line.rfind("// puzzle: ", 0) == 0) h.slug = line.substr(11);
        if (line == "// traced") h.traced = true;
        if (line.rfind("// fails: case ", 0) == 0)
            h.mustFail.push_back(std::stoul(line.substr(15)));
        if (line.rfind("// finding: ", 0) == 0) h.finding = line.substr(12);
    }
    return h;
}

class WrongKernelTest : public ::testing::TestWithParam<std::string> {};

TEST_P(WrongKernelTest, FailsAtLeastOneCase) {
    ASSERT_TRUE(engines().gpu);
    std::string source = read(GetParam());
    const std::string tag = "// puzzle: ";
    ASSERT_EQ(source.rfind(tag, 0), 0u) << "first line must be '" << tag << "SLUG'";
    WrongKernelHeader header = readHeader(source);
    auto p = engines().set.find(header.slug);
    ASSERT_TRUE(p.ok()) << p.error().str();
    CheckOptions options;
    options.trace = header.traced;
    CheckReport r =
        checkKernel(engines().compiler, *engines().gpu, **p, source, GetParam(), options);
    EXPECT_TRUE(r.compiled()) << describe(r);
    EXPECT_EQ(r.reached, StageKind::Done) << describe(r);
    EXPECT_FALSE(r.allPass()) << "this wrong kernel passes:\n" << describe(r);
    for (size_t n : header.mustFail) {
        ASSERT_GE(n, 1u);
        ASSERT_LE(n, r.cases.size())
            << "// fails: case " << n << ": the puzzle has " << r.cases.size() << " cases";
        EXPECT_FALSE(r.cases[n - 1].pass) << "case " << n << " should catch this mistake\n"
                                          << describe(r);
        if (!header.finding.empty()) {
            EXPECT_TRUE(hasFinding(r.cases[n - 1], header.finding))
                << "case " << n << " should have a '" << header.finding << "' finding\n"
                << describe(r);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Wrong, WrongKernelTest, ::testing::ValuesIn(test::kernelFiles("wrong")),
                         [](const auto& info) { return test::paramName(info.param); });

// After every puzzle ran: the validation layer (when installed) saw nothing wrong with our use
// of Vulkan across all solutions, starters and wrong kernels.
class ValidationEnvironment : public ::testing::Environment {
  public:
    void TearDown() override {
        if (!engines().gpu || !engines().gpu->validationEnabled()) return;
        for (const std::string& m : engines().gpu->validationMessages())
            ADD_FAILURE() << "validation: " << m;
    }
};
const auto* kValidation = ::testing::AddGlobalTestEnvironment(new ValidationEnvironment);

} // namespace
} // namespace vkp
