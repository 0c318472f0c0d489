#include "app/frame_stats.h"

#include <algorithm>
#include <cstdio>

namespace vkp::app {
namespace {

double ms(FrameStats::Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

std::string line(const char* what, const FrameStats::Summary& s) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "  %-28s median %6.2f ms   p95 %6.2f ms   worst %6.2f ms\n",
                  what, s.median, s.p95, s.worst);
    return buf;
}

} // namespace

void FrameStats::add(Clock::time_point start, Clock::time_point built,
                     Clock::time_point presented) {
    ++m_seen;
    if (m_seen > kWarmUpFrames) {
        if (m_lastStart != Clock::time_point{}) m_interval.push_back(ms(start - m_lastStart));
        m_build.push_back(ms(built - start));
        m_draw.push_back(ms(presented - built));
    }
    m_lastStart = start;
}

FrameStats::Summary FrameStats::summarise(std::vector<double> v) {
    Summary s;
    s.frames = v.size();
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    s.median = v[v.size() / 2];
    s.p95 = v[std::min(v.size() - 1, v.size() * 95 / 100)];
    s.worst = v.back();
    return s;
}

void FrameStats::print(std::ostream& os, const std::string& presentMode,
                       const std::string& uiDevice, const std::string& checkDevice,
                       uint64_t checks) const {
    Summary interval = summarise(m_interval);
    os << "frame times over " << interval.frames << " frames (after " << kWarmUpFrames
       << " warm-up frames); present mode " << presentMode << "\n";
    os << "  window drawn on " << uiDevice << "; kernels checked on " << checkDevice << " ("
       << checks << " checks ran, an edit every 0.4 s)\n";
    os << line("frame (start to next start)", interval);
    os << line("build the UI", summarise(m_build));
    os << line("draw and present", summarise(m_draw));
}

} // namespace vkp::app
