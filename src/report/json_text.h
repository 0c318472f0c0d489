// The one way the project turns JSON into text (CLI reports, progress, settings, drafts).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace vkp {

// The version of every JSON document the command line writes (docs/json-output.md).
inline constexpr int kJsonVersion = 1;

// Pretty-printed JSON. Strings come from files a user controls (kernel text, file names, puzzle
// titles) and may hold bytes that are not UTF-8; nlohmann's default throws type_error.316 on
// them, so each invalid byte becomes U+FFFD instead and the rest of the text is kept.
inline std::string jsonText(const nlohmann::json& j, int indent = 2) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace vkp
