// Reading a puzzle's [[schedule]] tables (internal to the loader; trace/forced_schedule.h).
#pragma once

#include "puzzle/puzzle.h"
#include "puzzle/toml_reader.h"

namespace vkp {

// After buffers and cases are read. Throws an Error at the offending line.
void parseSchedules(const Reader& r, const toml::table& root, Puzzle& p);

} // namespace vkp
