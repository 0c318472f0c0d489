// `vkpuzzles pack check DIR`: every puzzle of a pack linted, its solution and starter checked and
// its solution's mutants run (classroom/pack_check.h), reported as text or JSON.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "cli/style.h"

namespace vkp {
class Compiler;
class DeviceRunner;
class SubgroupSizeDevices;
} // namespace vkp

namespace vkp::cli {

struct PackCheckArgs {
    std::string dir;        // a folder of puzzle folders, or one puzzle's folder
    bool json = false;      // --json
    bool mutants = true;    // false with --no-mutants
    uint64_t timeoutMs = 0; // per case
    // The official solutions also at other subgroup sizes (null: --own-subgroup-size).
    SubgroupSizeDevices* sizes = nullptr;
};

// The exit status: 0 when every puzzle loads and passes the check (warnings aside), else 1.
// `rawErr` is stderr unfiltered, for the mutant count redrawn in place on a terminal (not with
// --json).
int runPackCheck(const PackCheckArgs& args, const Compiler& compiler, DeviceRunner& runner,
                 std::ostream& out, std::ostream& err, std::ostream& rawErr, const Style& style);

} // namespace vkp::cli
