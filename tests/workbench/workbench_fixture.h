// The Workbench tests' fixture: a Workbench on the built-in puzzles, a real device (lavapipe on
// CI) and a temporary data folder, and the frame loop run until the editor's text has a report.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <unistd.h>

#include "support/test_env.h"
#include "workbench/workbench.h"

namespace vkp::ui {

using namespace std::chrono_literals;

class WorkbenchTest : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir = (std::filesystem::temp_directory_path() /
                 ("vkp-workbench-" + std::to_string(getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                    .string();
        std::filesystem::remove_all(m_dir);
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    WorkbenchOptions options(const std::string& puzzle = "map") {
        WorkbenchOptions o;
        o.puzzleRoot = test::puzzleDir();
        o.dataDir = m_dir;
        o.deviceSelector = test::deviceOptions().deviceSelector;
        o.puzzle = puzzle;
        o.debounce = 20ms;
        o.autosaveDelay = 0ms;
        return o;
    }
    // Runs the frame loop's update until the editor's text has a report.
    static const CheckReport& settle(Workbench& wb) {
        auto until = std::chrono::steady_clock::now() + test::kPatience;
        for (;;) {
            wb.update();
            if (wb.currentReport() && wb.snapshot().status == LiveStatusKind::Done)
                return *wb.currentReport();
            if (std::chrono::steady_clock::now() > until) {
                ADD_FAILURE() << "no report: " << statusLine(wb.snapshot());
                static CheckReport none;
                return none;
            }
            std::this_thread::sleep_for(2ms);
        }
    }
    static std::string readFile(const std::string& path) {
        std::ifstream in(path);
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }
    std::string m_dir;
};

} // namespace vkp::ui
