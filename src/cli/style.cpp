#include "cli/style.h"

#include <cstdlib>
#include <cstring>

#include "base/os.h"

namespace vkp::cli {

bool Style::detect(const std::string& when) {
    if (when == "always") return true;
    if (when == "never") return false;
    if (!os::environmentVariable("NO_COLOR").empty() || os::environmentVariable("TERM") == "dumb")
        return false;
    return os::terminalColours(os::Stream::Out);
}

} // namespace vkp::cli
