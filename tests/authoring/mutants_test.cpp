// Mutant generation (authoring/mutants.h) on small kernels, and mutants.toml.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "authoring/mutants.h"
#include "support/system.h"

namespace vkp {
namespace {

const char* const kShared = R"(#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
shared float cache[64];
void main() {
    uint i = gl_GlobalInvocationID.x; // a < b in a comment, barrier();
    uint t = gl_LocalInvocationID.x;
    uint n = uint(a.length());
    if (i < n) {
        cache[t] = a[i] * 2.0;
    }
    barrier();
    if (i < n) {
        result[i] = cache[gl_WorkGroupSize.x - 1 - t] + 1.0;
    }
}
)";

MutationContext context() {
    MutationContext c;
    c.lengths = {{"a", 8}, {"result", 8}};
    c.workgroupSize = {4, 1, 1};
    c.workgroups = {2, 1, 1};
    return c;
}

std::vector<Mutant> ofKind(const std::vector<Mutant>& all, MutationKind kind) {
    std::vector<Mutant> out;
    std::copy_if(all.begin(), all.end(), std::back_inserter(out),
                 [&](const Mutant& m) { return m.kind == kind; });
    return out;
}

TEST(Mutants, BarrierRemovedNamesItsLine) {
    auto b = ofKind(makeMutants(kShared, context()), MutationKind::BarrierRemoved);
    ASSERT_EQ(b.size(), 1u) << "the barrier in the comment is not code";
    EXPECT_EQ(b[0].line, 13);
    EXPECT_EQ(b[0].before, "barrier();");
    EXPECT_EQ(b[0].after, "");
    EXPECT_EQ(b[0].text.find("    barrier();"), std::string::npos);
    EXPECT_NE(b[0].text.find("// a < b in a comment, barrier();"), std::string::npos);
    EXPECT_EQ(mutationChangeText(b[0]), "barrier(); removed");
    EXPECT_NE(mutationAdvice(b[0].kind, b[0].line).find("barrier on line 13"), std::string::npos);
}

TEST(Mutants, LocalForGlobalAndComparisons) {
    auto all = makeMutants(kShared, context());
    auto l = ofKind(all, MutationKind::LocalForGlobal);
    ASSERT_EQ(l.size(), 1u);
    EXPECT_EQ(l[0].line, 7);
    EXPECT_NE(l[0].text.find("uint i = gl_LocalInvocationID.x;"), std::string::npos);
    auto c = ofKind(all, MutationKind::Comparison);
    ASSERT_EQ(c.size(), 2u) << "the two `i < n`, not the one in the comment";
    EXPECT_EQ(c[0].before, "<");
    EXPECT_EQ(c[0].after, "<=");
    EXPECT_EQ(c[0].lineText, "if (i < n) {");
    EXPECT_NE(c[0].text, c[1].text);
}

TEST(Mutants, GuardRemovedOnlyWithoutElse) {
    auto g = ofKind(makeMutants(kShared, context()), MutationKind::GuardRemoved);
    ASSERT_EQ(g.size(), 2u);
    EXPECT_EQ(g[0].before, "if (i < n)");
    EXPECT_EQ(g[0].after, "if (true)");
    const char* withElse = "void main() { uint i = 0; if (i < 4) { i = 1; } else { i = 2; } }";
    EXPECT_TRUE(ofKind(makeMutants(withElse, {}), MutationKind::GuardRemoved).empty());
    const char* equality = "void main() { uint i = 0; if (i == 4) { i = 1; } }";
    EXPECT_TRUE(ofKind(makeMutants(equality, {}), MutationKind::GuardRemoved).empty());
}

TEST(Mutants, IndexOffsetsButNotDeclarations) {
    auto x = ofKind(makeMutants(kShared, context()), MutationKind::IndexOffset);
    // cache[t], a[i], result[i], cache[...]: each + 1 and - 1; never `cache[64]` or `a[]`.
    ASSERT_EQ(x.size(), 8u);
    EXPECT_EQ(x[0].before, "cache[t]");
    EXPECT_EQ(x[0].after, "cache[t + 1]");
    EXPECT_EQ(x[1].after, "cache[t - 1]");
    EXPECT_EQ(x[6].after, "cache[(gl_WorkGroupSize.x - 1 - t) + 1]");
}

TEST(Mutants, HardcodedSizesComeFromTheFirstCase) {
    auto h = ofKind(makeMutants(kShared, context()), MutationKind::HardcodedSize);
    ASSERT_EQ(h.size(), 2u);
    EXPECT_EQ(h[0].before, "a.length()");
    EXPECT_EQ(h[0].after, "8");
    EXPECT_EQ(h[1].before, "gl_WorkGroupSize.x");
    EXPECT_EQ(h[1].after, "4u");
    MutationContext c = context();
    c.constants["SIZE"] = 5;
    auto k = ofKind(makeMutants("const uint X = 1;\nvoid main() { uint r = SIZE * 2; }", c),
                    MutationKind::HardcodedSize);
    ASSERT_EQ(k.size(), 1u);
    EXPECT_EQ(k[0].after, "5u");
}

TEST(Mutants, PlusTimesOnlyBinary) {
    auto p = ofKind(makeMutants(kShared, context()), MutationKind::PlusTimes);
    // a[i] * 2.0 and ... + 1.0; the `-` are left alone.
    ASSERT_EQ(p.size(), 2u);
    EXPECT_EQ(p[0].before, "*");
    EXPECT_EQ(p[0].after, "+");
    EXPECT_EQ(p[1].before, "+");
    const char* increments = "void main() { uint i = 0; i++; i += 2; float f = +1.0; }";
    EXPECT_TRUE(ofKind(makeMutants(increments, {}), MutationKind::PlusTimes).empty());
}

TEST(Mutants, LoopBoundBecomesTheWorkgroupSize) {
    const char* loop = "void main() {\n  float s = 0.0;\n  for (uint j = 0; j < n; ++j) s += 1.0;\n"
                       "  for (uint k = 0; k < gl_WorkGroupSize.x; ++k) s += 2.0;\n}\n";
    auto l = ofKind(makeMutants(loop, {}), MutationKind::LoopBound);
    ASSERT_EQ(l.size(), 1u);
    EXPECT_EQ(l[0].line, 3);
    EXPECT_EQ(l[0].before, "n");
    EXPECT_EQ(l[0].after, "gl_WorkGroupSize.x");
}

// Loops over doubling or halving distances (scans, tree reductions, butterflies) lose their last
// round; counting loops and loops whose condition is not on the distance are left alone.
TEST(Mutants, LastDistanceDropsTheLastDoublingOrHalving) {
    const char* k = "void main() {\n"
                    "  for (uint d = 1u; d < wg; d *= 2u) s += 1;\n"
                    "  for (int d = 1; d <= n; d <<= 1) s += 2;\n"
                    "  for (uint d = wg / 2; d > 0; d >>= 1) s += 3;\n"
                    "  for (uint o = 16u; o >= 1u; o = o / 2u) s += 4;\n"
                    "  for (uint j = 0; j < n; ++j) s += 5;\n"
                    "  for (uint d = 1u; d < wg; d += 2u) s += 6;\n"
                    "  for (uint d = 1u; n > d; d *= 2u) s += 7;\n"
                    "}\n";
    auto l = ofKind(makeMutants(k, {}), MutationKind::LastDistance);
    ASSERT_EQ(l.size(), 5u);
    EXPECT_EQ(l[0].line, 2);
    EXPECT_EQ(l[0].before, "d");
    EXPECT_EQ(l[0].after, "(d << 1)");
    EXPECT_NE(l[0].text.find("(d << 1) < wg; d *= 2u"), std::string::npos);
    // A doubling loop up to a bound also stops at half of it: a round short where the bound
    // is not a power of two (48 reaches 16, not 32), the same where it is.
    EXPECT_EQ(l[1].line, 2);
    EXPECT_EQ(l[1].before, "< wg");
    EXPECT_EQ(l[1].after, "<= (wg) / 2");
    EXPECT_NE(l[1].text.find("d <= (wg) / 2; d *= 2u"), std::string::npos);
    EXPECT_EQ(l[2].line, 3);
    EXPECT_EQ(l[2].after, "(d << 1)");
    EXPECT_EQ(l[3].line, 4);
    EXPECT_EQ(l[3].after, "(d >> 1)");
    EXPECT_EQ(l[4].line, 5);
    EXPECT_EQ(l[4].after, "(o >> 1)");
    EXPECT_NE(mutationAdvice(MutationKind::LastDistance, 2).find("skips its last distance"),
              std::string::npos);
}

TEST(Mutants, SwapXYOnlyIn2D) {
    const char* k = "void main() { uint c = gl_GlobalInvocationID.x; uint r = "
                    "gl_GlobalInvocationID.y; uvec2 l = gl_LocalInvocationID.xy; }";
    EXPECT_TRUE(ofKind(makeMutants(k, {}), MutationKind::SwapXY).empty());
    MutationContext c;
    c.twoD = true;
    auto s = ofKind(makeMutants(k, c), MutationKind::SwapXY);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0].after, "gl_GlobalInvocationID.y");
    EXPECT_EQ(s[2].after, "gl_LocalInvocationID.yx");
}

TEST(Mutants, StringsPreprocessorAndLayoutsAreLeftAlone) {
    const char* k = "#version 450\n#define LIMIT (4 < 5)\nlayout(local_size_x_id = 0) in;\n"
                    "void main() { debugPrintfEXT(\"a < b + c\"); }\n";
    EXPECT_TRUE(makeMutants(k, {}).empty());
}

TEST(Mutants, IdenticalTextsAreMadeOnce) {
    auto all = makeMutants(kShared, context());
    for (size_t i = 0; i < all.size(); ++i)
        for (size_t j = i + 1; j < all.size(); ++j)
            EXPECT_NE(all[i].text, all[j].text) << i << " and " << j;
}

TEST(Mutants, KindNamesRoundTrip) {
    for (MutationKind k :
         {MutationKind::BarrierRemoved, MutationKind::LoopBound, MutationKind::SwapXY,
          MutationKind::HardcodedSize, MutationKind::LastDistance})
        EXPECT_EQ(mutationKindFromName(mutationKindName(k)), k);
    EXPECT_FALSE(mutationKindFromName("barrier"));
    // The former name of last-distance, which packs' mutants.toml files may still use.
    EXPECT_EQ(mutationKindFromName("last-round"), MutationKind::LastDistance);
}

std::string tempDir(const std::string& name, const std::string& toml) {
    std::string dir = "/tmp/vkp-mutants-test-" + std::to_string(getpid()) + "-" + name;
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/mutants.toml") << toml;
    return dir;
}

TEST(EquivalentMutants, LoadAndMatchIgnoringSpaces) {
    std::string dir = tempDir("ok", R"([[equivalent]]
kind = "comparison"
line = "if (i <  n) {"
before = "<"
after = "<="
why = "result has n + 1 cells; the extra thread writes the spare one"
)");
    auto list = loadEquivalentMutants(dir);
    ASSERT_TRUE(list.ok()) << list.error().str();
    ASSERT_EQ(list->size(), 1u);
    auto c = ofKind(makeMutants(kShared, context()), MutationKind::Comparison);
    EXPECT_TRUE(matchesEquivalent(list->front(), "kernel", c[0]));
    EXPECT_FALSE(
        matchesEquivalent(list->front(), "kernel",
                          ofKind(makeMutants(kShared, context()), MutationKind::GuardRemoved)[0]));
    std::filesystem::remove_all(dir);
}

// Two `<` on one line make two mutants with the same kind, line, before and after: `mutated`
// (the line as the mutant has it) tells them apart, so listing one never hides the other.
TEST(EquivalentMutants, MutatedLineTellsTwoOccurrencesApart) {
    const std::string source = R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < 8u && i + 1u < 4u) a[i] = 1u;
}
)";
    auto c = ofKind(makeMutants(source, context()), MutationKind::Comparison);
    ASSERT_GE(c.size(), 2u);
    ASSERT_EQ(c[0].lineText, c[1].lineText);
    std::string dir = tempDir("two", R"([[equivalent]]
kind = "comparison"
line = "if (i < 8u && i + 1u < 4u) a[i] = 1u;"
before = "<"
after = "<="
mutated = "if (i <= 8u && i + 1u < 4u) a[i] = 1u;"
why = "only the first: a test of the matching"
)");
    auto list = loadEquivalentMutants(dir);
    ASSERT_TRUE(list.ok()) << list.error().str();
    ASSERT_EQ(list->size(), 1u);
    EXPECT_TRUE(matchesEquivalent(list->front(), "kernel", c[0]));
    EXPECT_FALSE(matchesEquivalent(list->front(), "kernel", c[1]));
    std::filesystem::remove_all(dir);
}

// subgroup_size: an entry for one subgroup width (pack check applies it on that width only).
TEST(EquivalentMutants, SubgroupSizeIsReadAndChecked) {
    const std::string entry = R"([[equivalent]]
kind = "comparison"
line = "if (i < n) {"
before = "<"
after = "<="
why = "survives only on 8-lane subgroups"
)";
    std::string dir = tempDir("lanes", entry + "subgroup_size = 8\n");
    auto list = loadEquivalentMutants(dir);
    ASSERT_TRUE(list.ok()) << list.error().str();
    EXPECT_EQ(list->front().subgroupSize, 8u);
    std::ofstream(dir + "/mutants.toml") << entry;
    list = loadEquivalentMutants(dir);
    ASSERT_TRUE(list.ok()) << list.error().str();
    EXPECT_EQ(list->front().subgroupSize, 0u) << "none given: every device";
    std::ofstream(dir + "/mutants.toml") << entry + "subgroup_size = 0\n";
    list = loadEquivalentMutants(dir);
    ASSERT_FALSE(list.ok());
    EXPECT_EQ(list.error().where.line, 7) << list.error().str();
    EXPECT_NE(list.error().message.find("subgroup_size"), std::string::npos);
    std::filesystem::remove_all(dir);
}

// device: an entry for the devices whose name contains it (pack check applies it there only).
TEST(EquivalentMutants, DeviceIsReadAndAnEmptyOneRefused) {
    const std::string entry = R"([[equivalent]]
kind = "comparison"
line = "if (i < n) {"
before = "<"
after = "<="
why = "lavapipe starts the array at zero"
)";
    std::string dir = tempDir("device", entry + "device = \"llvmpipe\"\n");
    auto list = loadEquivalentMutants(dir);
    ASSERT_TRUE(list.ok()) << list.error().str();
    EXPECT_EQ(list->front().device, "llvmpipe");
    std::ofstream(dir + "/mutants.toml") << entry + "device = \" \"\n";
    list = loadEquivalentMutants(dir);
    ASSERT_FALSE(list.ok());
    EXPECT_EQ(list.error().where.line, 7) << list.error().str();
    EXPECT_NE(list.error().message.find("'device'"), std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST(EquivalentMutants, ErrorsNameTheLine) {
    std::string dir =
        tempDir("bad", "[[equivalent]]\nkind = \"comparison\"\nline = \"x\"\n"
                       "before = \"<\"\nwhy = \"\"\n\n[[equivalent]]\nkind = \"nope\"\n");
    auto list = loadEquivalentMutants(dir);
    ASSERT_FALSE(list.ok());
    EXPECT_EQ(list.error().where.line, 5) << list.error().str();
    EXPECT_NE(list.error().message.find("why"), std::string::npos);
    std::ofstream(dir + "/mutants.toml") << "[[equivalent]]\nkind = \"nope\"\n";
    list = loadEquivalentMutants(dir);
    ASSERT_FALSE(list.ok());
    EXPECT_EQ(list.error().where.line, 2);
    EXPECT_NE(list.error().message.find("barrier-removed"), std::string::npos);
    EXPECT_TRUE(loadEquivalentMutants("/nonexistent-folder").ok()) << "no file: no equivalents";
    std::filesystem::remove_all(dir);
}

// An entry with nothing to match, a link that leads nowhere: errors, not silence.
TEST(EquivalentMutants, EmptyLinesAndDanglingLinksAreErrors) {
    const std::string tail = "after = \"<=\"\nwhy = \"w\"\n";
    std::string dir = tempDir("empty", "[[equivalent]]\nkind = \"comparison\"\nline = \" \"\n"
                                       "before = \"<\"\n" +
                                           tail);
    auto list = loadEquivalentMutants(dir);
    ASSERT_FALSE(list.ok());
    EXPECT_EQ(list.error().where.line, 3) << list.error().str();
    EXPECT_NE(list.error().message.find("'line' must be"), std::string::npos);
    std::ofstream(dir + "/mutants.toml")
        << "[[equivalent]]\nkind = \"comparison\"\nline = \"if (i < n) {\"\nbefore = \"\"\n" + tail;
    list = loadEquivalentMutants(dir);
    ASSERT_FALSE(list.ok());
    EXPECT_EQ(list.error().where.line, 4) << list.error().str();
    std::filesystem::remove(dir + "/mutants.toml");
    if (test::canMakeSymlinks()) {
        std::filesystem::create_symlink(dir + "/nowhere.toml", dir + "/mutants.toml");
        list = loadEquivalentMutants(dir);
        ASSERT_FALSE(list.ok()) << "a dangling link is not an absent file";
        EXPECT_NE(list.error().str().find("mutants.toml"), std::string::npos) << list.error().str();
    }
    std::filesystem::remove_all(dir);
}

// What pack check tells an author about entries that match nothing: whether the line is one the
// mutants change at all, and whether an entry repeats another.
TEST(EquivalentMutants, LineMatchesAndCopiesAreToldApart) {
    auto c = ofKind(makeMutants(kShared, context()), MutationKind::Comparison);
    ASSERT_FALSE(c.empty());
    EquivalentMutant e;
    e.kind = MutationKind::Comparison;
    e.line = c[0].lineText;
    e.before = "<";
    e.after = ">"; // no such mutant on the line
    EXPECT_TRUE(onEquivalentsLine(e, "kernel", c[0]));
    EXPECT_FALSE(matchesEquivalent(e, "kernel", c[0]));
    e.kernel = "other";
    EXPECT_FALSE(onEquivalentsLine(e, "kernel", c[0]));
    EquivalentMutant copy = e;
    copy.line = "  " + e.line; // re-indented: the same entry
    EXPECT_TRUE(sameEquivalent(e, copy));
    copy.mutated = "if (i <= n) {";
    EXPECT_FALSE(sameEquivalent(e, copy));
    EXPECT_EQ(mutatedLine(c[0]).find(c[0].after) != std::string::npos, true) << mutatedLine(c[0]);
    EXPECT_NE(mutatedLine(c[0]), c[0].lineText);
}

} // namespace
} // namespace vkp
