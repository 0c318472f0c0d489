// Reading a puzzle's [[schedule]] tables (internal to the loader; core/forced_schedule.h).
#pragma once

#include "core/puzzle.h"
#include "core/toml_reader.h"

namespace vkp {

// After buffers and cases are read. Throws LoadFailure at the offending line.
void parseSchedules(const Reader& r, const toml::table& root, Puzzle& p);

} // namespace vkp
