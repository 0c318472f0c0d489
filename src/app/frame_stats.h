// Frame times of the app's loop, for `--frames N --frame-stats`.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace vkp::app {

class FrameStats {
  public:
    using Clock = std::chrono::steady_clock;
    static constexpr size_t kWarmUpFrames = 30; // fonts, pipelines and the first checks settle

    // One frame: started, UI built (ImGui::Render), drawn and presented.
    void add(Clock::time_point start, Clock::time_point built, Clock::time_point presented);
    void print(std::ostream& os, const std::string& presentMode, const std::string& uiDevice,
               const std::string& checkDevice, uint64_t checks) const;

    struct Summary {
        size_t frames = 0;
        double median = 0, p95 = 0, worst = 0; // ms
    };
    static Summary summarise(std::vector<double> ms);

  private:
    std::vector<double> m_interval; // start to next start: what the learner sees
    std::vector<double> m_build;    // building the UI
    std::vector<double> m_draw;     // recording, submitting and presenting
    Clock::time_point m_lastStart{};
    size_t m_seen = 0;
};

} // namespace vkp::app
