// "Benchmark at large N" in the test-cases panel: the button, the N to run at, and a window with
// the figures `vkpuzzles bench` prints (time, bandwidth, kernel / copy), or what is under way
// (with Cancel), or the error. The run itself is session/background_bench.h's, on its own thread.
#pragma once

#include <optional>
#include <string>

#include "bench/bench.h"
#include "workbench/workbench.h"

namespace vkp::ui {

class BenchView {
  public:
    // The button row (only for puzzles that can be benchmarked).
    void drawButton(Workbench& wb);
    // The figures window, while there is something to show.
    void drawWindow(Workbench& wb);

  private:
    std::string m_n;                          // as `vkpuzzles bench --n`; the puzzle's bench_n
    std::string m_checkedFor;                 // the puzzle `m_unavailable` is about
    std::optional<std::string> m_unavailable; // why the open puzzle cannot be benchmarked
    std::optional<FixedLaunch> m_fixed; // its benchmark case launches one workgroup: its own N
    std::string m_error;                // a bad N
    bool m_windowOpen = false;
};

} // namespace vkp::ui
