// The order in which the list shows the puzzles' tracks.
#pragma once

#include <string>

namespace vkp {

// Whether track `a` is listed before track `b`: classic, scan, performance, algorithms, sparse,
// detective (the order a learner takes them in), then any other track alphabetically.
bool trackBefore(const std::string& a, const std::string& b);

} // namespace vkp
