#include "cli/style.h"

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace vkp::cli {

bool Style::detect(const std::string& when) {
    if (when == "always") return true;
    if (when == "never") return false;
    const char* term = std::getenv("TERM");
    if (std::getenv("NO_COLOR") || (term && std::strcmp(term, "dumb") == 0)) return false;
    return isatty(STDOUT_FILENO);
}

} // namespace vkp::cli
