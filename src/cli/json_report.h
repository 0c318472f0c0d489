// Stable JSON for graders (documented in docs/json-output.md).
#pragma once

#include <nlohmann/json.hpp>

#include "check/check.h"
#include "device/device_info.h"
#include "puzzle/puzzle.h"
#include "report/json_text.h"

namespace vkp::cli {

nlohmann::json deviceJson(const DeviceInfo& d);
nlohmann::json errorJson(const Error& e);
nlohmann::json checkJson(const Puzzle& p, const CheckReport& r, bool withBuffers, bool withTiming);
nlohmann::json puzzleJson(const Puzzle& p);

} // namespace vkp::cli
