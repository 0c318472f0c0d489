// The case the panels show of a multi-pass puzzle: the dispatch picked, kept while the case stays.
// Needs a Vulkan device (lavapipe will do).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include <unistd.h>

#include "puzzle/puzzle_loader.h"
#include "support/engines.h"
#include "support/test_env.h"
#include "workbench/shown_case.h"

namespace vkp::ui {
namespace {

using test::engines;

const Puzzle& puzzle(const std::string& name) {
    return test::puzzleNamed(name);
}

// The view state: the default dispatch, a pick kept across re-checks of the same case, dropped
// for another case; the keyboard's previous / next.
TEST(DispatchTest, APickIsKeptWhileTheCaseStays) {
    namespace fs = std::filesystem;
    using namespace std::chrono_literals;
    std::string dir =
        (fs::temp_directory_path() / ("vkp-dispatch-" + std::to_string(getpid()))).string();
    WorkbenchOptions o;
    o.puzzleRoot = test::puzzleDir();
    o.dataDir = dir;
    o.persist = false;
    o.deviceSelector = test::deviceOptions().deviceSelector;
    o.puzzle = "scan-hillis-steele";
    o.kernelFile = puzzle("scan-hillis-steele").kernels[0].solutionPath;
    o.debounce = 20ms;
    Workbench wb(o);
    auto settle = [&] {
        auto until = std::chrono::steady_clock::now() + test::kPatience;
        while (!(wb.currentReport() && wb.snapshot().status == LiveStatusKind::Done) &&
               std::chrono::steady_clock::now() < until) {
            wb.update();
            std::this_thread::sleep_for(2ms);
        }
        ASSERT_TRUE(wb.currentReport());
    };
    settle();
    views::ViewState view;
    view.selectedCase = 1; // 13 elements: 4 steps
    ShownCase sc = shownCase(wb, view);
    ASSERT_TRUE(sc.entry);
    EXPECT_EQ(sc.dispatches, 4u);
    EXPECT_EQ(sc.dispatch, 0u);
    EXPECT_EQ(sc.testCase->workgroups, (std::array<uint32_t, 3>{4, 1, 1}));
    EXPECT_EQ(sc.trace(), view.traces.trace());
    view.pickedDispatch = 2;
    sc = shownCase(wb, view);
    EXPECT_EQ(sc.dispatch, 2u);
    EXPECT_EQ(sc.entry->label, "step (3 of 4)");
    EXPECT_EQ(sc.trace(), sc.outcome->dispatches[2].trace.get());
    EXPECT_EQ(sc.startData(), &sc.memory->before);
    wb.session().recheck();
    std::this_thread::sleep_for(50ms);
    settle();
    sc = shownCase(wb, view);
    EXPECT_EQ(sc.dispatch, 2u) << "kept across a re-check";
    EXPECT_EQ(sc.trace(), sc.outcome->dispatches[2].trace.get()) << "of the new report";
    view.dispatchStep = 1;
    EXPECT_EQ(shownCase(wb, view).dispatch, 3u);
    view.dispatchStep = 1;
    EXPECT_EQ(shownCase(wb, view).dispatch, 3u) << "the last stays the last";
    view.dispatchStep = -1;
    EXPECT_EQ(shownCase(wb, view).dispatch, 2u);
    view.selectedCase = 0;
    sc = shownCase(wb, view);
    EXPECT_EQ(sc.dispatch, 0u) << "another case starts on its default";
    EXPECT_FALSE(view.pickedDispatch);
    fs::remove_all(dir);
}

} // namespace
} // namespace vkp::ui
