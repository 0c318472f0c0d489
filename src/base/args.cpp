#include "base/args.h"

#include <algorithm>

namespace vkp {

std::string joined(const std::vector<std::string>& words, const std::string& separator,
                   const std::string& last) {
    std::string out;
    for (size_t i = 0; i < words.size(); ++i)
        out += (i == 0 ? "" : i + 1 == words.size() ? last : separator) + words[i];
    return out;
}

bool Args::has(const std::string& flag) const {
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

std::optional<std::string> Args::value(const std::string& name) const {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
}

std::vector<std::string> Args::all(const std::string& name) const {
    std::vector<std::string> out;
    for (const auto& [n, v] : repeated)
        if (n == name) out.push_back(v);
    return out;
}

} // namespace vkp
