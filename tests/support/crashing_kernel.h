// A kernel that crashes glslang (issue 19: a stack overflow on a 50000-term sum): puzzle 01's
// official solution with `+ 0.0` appended 50000 times on the line of its sum (line 17).
#pragma once

#include <fstream>
#include <iterator>
#include <string>

#include "support/test_env.h"

namespace vkp::test {

inline constexpr int kCrashingLine = 17;

inline std::string mapSolution() {
    std::ifstream in(puzzleDir() + "/01-map/solution.comp");
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline std::string crashingKernel() {
    std::string text = mapSolution();
    std::string sum = "a[i] + 10.0";
    std::string terms;
    for (int i = 0; i < 50000; ++i)
        terms += " + 0.0";
    size_t at = text.find(sum);
    if (at != std::string::npos) text.insert(at + sum.size(), terms);
    return text;
}

} // namespace vkp::test
