// `pack check` of one puzzle (classroom/pack_check.h) on lavapipe: a weak puzzle's survivors are
// named with their line and counted against it; a puzzle the device cannot run is loaded and
// linted but neither run nor failed, and the others still run; a puzzle without a walkthrough
// fails where it ships with vkpuzzles and is warned about in a pack. (Every bundled puzzle's full
// check, mutants and all, is the content tier, pack_check_FOLDER; the command's output is
// tests/cli/pack_check_cli_test.cpp's.)
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "authoring/mutants.h"
#include "classroom/pack_check.h"
#include "gpu/context.h"
#include "gpu/device_runner.h"
#include "puzzle/kernel_sections.h"
#include "puzzle/walkthrough.h"
#include "support/engines.h"

namespace vkp {
namespace {

using test::engines;
using test::puzzleNamed;

std::string weakPack() {
    return test::sourceDir() + "/tests/data/packcheck/weak";
}

// The deliberately weak puzzle of tests/data/packcheck: one case of one workgroup as wide as the
// array, so a kernel that uses the local id for the global one passes it.
TEST(PackCheck, AWeakPuzzlesSurvivorsAreNamedAndFailTheCheck) {
    ASSERT_TRUE(engines().gpu);
    PuzzleSet set = loadPuzzleSet(weakPack());
    auto found = set.find("one-block");
    ASSERT_TRUE(found.ok()) << found.error().message;
    InProcessRunner runner(*engines().gpu);
    size_t calls = 0, lastTotal = 0;
    PuzzleCheckOutcome o =
        packCheckPuzzle(engines().compiler, runner, **found, {}, [&](size_t done, size_t total) {
            EXPECT_LE(done, total);
            ++calls;
            lastTotal = total;
        });
    EXPECT_FALSE(o.solutionProblem) << *o.solutionProblem;
    EXPECT_FALSE(o.starterProblem) << *o.starterProblem;
    EXPECT_TRUE(o.skipped.empty()) << o.skipped;
    EXPECT_GT(calls, 0u) << "progress is told for each mutant";
    EXPECT_GT(o.count(MutantFateKind::Killed), 0u);
    bool localForGlobal = false;
    for (const MutantOutcome& m : o.mutants) {
        if (m.fate != MutantFateKind::Survived) continue;
        EXPECT_TRUE(m.killedBy.empty()) << m.killedBy;
        localForGlobal =
            localForGlobal || (m.mutant.line == 7 && m.mutant.before == "gl_GlobalInvocationID" &&
                               m.mutant.after == "gl_LocalInvocationID");
    }
    EXPECT_TRUE(localForGlobal) << "the local id for the global one survives the one workgroup";
    EXPECT_LT(o.killRate(), 1.0);
    EXPECT_FALSE(o.ok()) << "a survivor fails the check";
    EXPECT_EQ(lastTotal, o.mutants.size()) << "the last call says every mutant is done";
}

// A solution whose loop needs more back-edges than mutants are given: its mutants get a learner's
// budget, so the one that cannot differ (the local id for the global one, in one workgroup of
// one thread) survives instead of being stopped on the long case and counted as killed.
TEST(PackCheck, ASolutionLongerThanTheMutantBudgetLendsItsMutantsALearnersBudget) {
    ASSERT_TRUE(engines().gpu);
    PuzzleSet set = loadPuzzleSet(test::sourceDir() + "/tests/data/packcheck/long-loop");
    auto found = set.find("long-sum");
    ASSERT_TRUE(found.ok()) << found.error().message;
    InProcessRunner runner(*engines().gpu);
    PuzzleCheckOutcome o = packCheckPuzzle(engines().compiler, runner, **found, {}, {});
    EXPECT_FALSE(o.solutionProblem) << *o.solutionProblem;
    bool localForGlobal = false;
    for (const MutantOutcome& m : o.mutants)
        if (m.mutant.before == "gl_GlobalInvocationID" && m.mutant.after == "gl_LocalInvocationID")
            localForGlobal = m.fate == MutantFateKind::Survived;
    EXPECT_TRUE(localForGlobal) << "the local id for the global one cannot differ here";
    EXPECT_GT(o.count(MutantFateKind::Killed), 0u) << "the others still die on their values";
}

// An equivalent mutant listed for a device applies on a device of that name only: the weak
// puzzle's surviving local-for-global mutant, listed for "llvmpipe", is equivalent on lavapipe
// and, listed for another device, still survives here.
TEST(PackCheck, AnEntryForADeviceAppliesOnThatDeviceOnly) {
    ASSERT_TRUE(engines().gpu);
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("vkp-device-entry-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy(weakPack() + "/01-one-block", dir / "01-one-block");
    auto fateOn = [&](const std::string& device) {
        std::ofstream(dir / "01-one-block" / "mutants.toml")
            << "[[equivalent]]\nkind = \"local-for-global\"\n"
               "line = \"uint i = gl_GlobalInvocationID.x;\"\n"
               "before = \"gl_GlobalInvocationID\"\nafter = \"gl_LocalInvocationID\"\n"
               "device = \""
            << device << "\"\nwhy = \"one workgroup\"\n";
        PuzzleSet set = loadPuzzleSet(dir.string());
        auto found = set.find("one-block");
        EXPECT_TRUE(found.ok());
        InProcessRunner runner(*engines().gpu);
        PuzzleCheckOutcome o = packCheckPuzzle(engines().compiler, runner, **found, {}, {});
        for (const MutantOutcome& m : o.mutants)
            if (m.mutant.after == "gl_LocalInvocationID") return m.fate;
        return MutantFateKind::Killed;
    };
    EXPECT_EQ(fateOn(engines().gpu->info().name.substr(0, 8)), MutantFateKind::Equivalent);
    EXPECT_EQ(fateOn("no device has this name"), MutantFateKind::Survived);
    fs::remove_all(dir);
}

TEST(PackCheck, APuzzleTheDeviceCannotRunIsSkippedNotFailed) {
    ASSERT_TRUE(engines().gpu);
    const Puzzle& p = puzzleNamed("matmul-tensor-cores");
    InProcessRunner runner(*engines().gpu);
    PuzzleCheckOutcome o = packCheckPuzzle(engines().compiler, runner, p, {});
    EXPECT_NE(o.skipped.find(builtWithCooperativeMatrix() ? "lacks cooperative matrix"
                                                          : "this vkpuzzles cannot ask"),
              std::string::npos)
        << o.skipped;
    EXPECT_TRUE(o.ok()) << "a puzzle the device cannot run is not failed";
    EXPECT_FALSE(o.solutionProblem);
    EXPECT_FALSE(o.starterProblem);
    EXPECT_TRUE(o.mutants.empty());
    for (const Diagnostic& d : o.lint)
        EXPECT_NE(d.severity, SeverityKind::Error) << d.str();
    // Another puzzle still runs.
    PackCheckOptions quick;
    quick.mutants = false;
    PuzzleCheckOutcome map = packCheckPuzzle(engines().compiler, runner, puzzleNamed("map"), quick);
    EXPECT_TRUE(map.skipped.empty()) << map.skipped;
    EXPECT_TRUE(map.ok());
}

// The bundled puzzles are those in the puzzles/ folder vkpuzzles ships with, however the paths are
// spelled; a pack's puzzle is not, nor is a bundled one measured against another folder.
// Every bundled puzzle's mutants.toml loads, and each of its entries names a mutant of the official
// solution, without running anything: a device-only puzzle's file (the tensor cores: pack check
// skips its mutants on lavapipe) is checked here too, and an entry that no longer matches (the
// solution's line changed) is found on any machine.
TEST(PackCheck, EveryMutantsFileLoadsAndEachEntryNamesAMutantOfTheSolution) {
    size_t files = 0, entries = 0;
    for (const Puzzle& p : engines().set.puzzles) {
        auto known = loadEquivalentMutants(p.dir);
        ASSERT_TRUE(known.ok()) << p.dir << ": " << known.error().str();
        if (known->empty()) continue;
        ++files;
        auto solution = readKernelSources(p, true);
        ASSERT_TRUE(solution.ok()) << p.dir;
        std::vector<std::pair<std::string, Mutant>> all;
        for (const KernelSource& k : *solution)
            for (Mutant& m : makeMutants(k.text, mutationContext(p)))
                all.emplace_back(k.name, std::move(m));
        for (const EquivalentMutant& e : *known) {
            ++entries;
            bool named = std::any_of(all.begin(), all.end(), [&](const auto& km) {
                return matchesEquivalent(e, km.first, km.second);
            });
            EXPECT_TRUE(named) << p.dir << "/mutants.toml:" << e.where.line << ": " << e.line
                               << " (" << mutationKindName(e.kind) << ", " << e.before << " -> "
                               << e.after << ") names no mutant of the official solution";
        }
    }
    EXPECT_GE(files, 2u);
    EXPECT_GT(entries, 0u);
}

TEST(PackCheck, ABundledPuzzleIsOneInTheBundledPuzzlesFolder) {
    const Puzzle& map = puzzleNamed("map");
    EXPECT_TRUE(isBundledPuzzle(map, bundledPuzzleRoot()))
        << map.dir << " in " << bundledPuzzleRoot();
    EXPECT_TRUE(isBundledPuzzle(map, test::sourceDir() + "/puzzles/../puzzles/"));
    Puzzle slash = map;
    slash.dir = test::sourceDir() + "/puzzles/./01-map/";
    EXPECT_TRUE(isBundledPuzzle(slash, bundledPuzzleRoot())) << slash.dir;
    EXPECT_FALSE(isBundledPuzzle(map, weakPack()));
    PuzzleSet set = loadPuzzleSet(weakPack());
    auto oneBlock = set.find("one-block");
    ASSERT_TRUE(oneBlock.ok()) << oneBlock.error().message;
    EXPECT_FALSE(isBundledPuzzle(**oneBlock, bundledPuzzleRoot())) << (*oneBlock)->dir;
    EXPECT_TRUE(isBundledPuzzle(**oneBlock, weakPack()));
}

// Every official solution can be stepped through: a puzzle without walkthrough.toml fails the
// check where it ships with vkpuzzles (here: its folder taken as the bundled one), and is a
// warning in a teacher's pack, named at the file to write. Writing one ends both.
TEST(PackCheck, AMissingWalkthroughFailsABundledPuzzleAndWarnsAPack) {
    ASSERT_TRUE(engines().gpu);
    namespace fs = std::filesystem;
    fs::path pack = fs::temp_directory_path() / ("vkp-pack-nowalk-" + std::to_string(getpid()));
    fs::remove_all(pack);
    fs::create_directories(pack);
    fs::copy(weakPack() + "/01-one-block", pack / "01-one-block");
    auto p = loadPuzzle((pack / "01-one-block").string());
    ASSERT_TRUE(p.ok()) << p.error().str();
    ASSERT_FALSE(hasWalkthrough(*p));
    InProcessRunner runner(*engines().gpu);
    PackCheckOptions options;
    options.mutants = false;
    auto missing = [](const PuzzleCheckOutcome& o) {
        std::vector<Diagnostic> found;
        for (const Diagnostic& d : o.lint)
            if (d.message.find("missing") != std::string::npos &&
                std::filesystem::path(d.file).filename() == kWalkthroughFile)
                found.push_back(d);
        return found;
    };

    PuzzleCheckOutcome inPack = packCheckPuzzle(engines().compiler, runner, *p, options);
    auto d = missing(inPack);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].severity, SeverityKind::Warning) << d[0].str();
    EXPECT_EQ(fs::path(d[0].file), pack / "01-one-block" / kWalkthroughFile) << d[0].str();
    EXPECT_TRUE(inPack.ok()) << "a warning does not fail a pack";

    options.bundledRoot = pack.string();
    PuzzleCheckOutcome bundled = packCheckPuzzle(engines().compiler, runner, *p, options);
    d = missing(bundled);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].severity, SeverityKind::Error) << d[0].str();
    EXPECT_FALSE(bundled.ok()) << "a bundled puzzle without a walkthrough fails";

    std::ofstream(pack / "01-one-block" / kWalkthroughFile)
        << "title = \"Adding ten\"\n[[steps]]\ntitle = \"One add\"\n"
           "text = \"Each thread adds ten to its element.\"\nlines = [9]\nthreads = [[3]]\n";
    PuzzleCheckOutcome written = packCheckPuzzle(engines().compiler, runner, *p, options);
    EXPECT_TRUE(missing(written).empty());
    for (const Diagnostic& l : written.lint)
        EXPECT_NE(l.severity, SeverityKind::Error) << l.str();
    EXPECT_TRUE(written.ok());
    fs::remove_all(pack);
}

} // namespace
} // namespace vkp
