// Verdicts that hold at every subgroup size. A kernel that uses subgroups (an operation, or a
// gl_Subgroup* built-in) is checked again on lavapipe started with 4, 8 and 16 lanes, and as if
// with 32 and 64 (emulated on 4: rewrite/subgroup_emulation.h), besides the device's own size,
// and judged there as at its own (traced where the check is: an out-of-bounds write or a race
// with 4 lanes fails as one): a kernel right with one number of lanes and wrong with another
// assumes a subgroup size, and fails. lavapipe reads its width (LP_NATIVE_VECTOR_WIDTH, 32 bits a
// lane) once per process, so each size is a worker process of its own, opened at first use.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "check/check.h"
#include "check/runner.h"
#include "device/device_info.h"
#include "puzzle/puzzle.h"
#include "rewrite/subgroup_emulation.h"

namespace vkp {

class Compiler;
class DeviceRunner;

// The sizes lavapipe can be started with and still runs kernels right (Mesa 22 and 25). At 1024
// and 2048 bits it says 32 and 64 lanes but runs subgroups of 16 (gl_SubgroupID and subgroupAdd
// count 16), so those sizes are emulated (kEmulatedSubgroupSizes), on the 4-lane device: its
// pipelines build soonest (measured on Mesa 25, 2 cores, a traced scan-decoupled: 64 lanes emulated
// added 2.9 s of CPU to the check on 4 lanes, 12.7 s on 16).
inline constexpr uint32_t kCpuSubgroupSizes[] = {4, 8, 16};
inline constexpr uint32_t kEmulatingLanes = 4;

// Whether a check at `lanes` runs emulated: no CPU device has that many.
bool emulatedSize(uint32_t lanes);

// The sizes a check on `device` is also run at: kCpuSubgroupSizes and kEmulatedSubgroupSizes,
// less the device's own.
std::vector<uint32_t> sizesBeside(const DeviceInfo& device);

// The devices at other subgroup sizes, each opened at first use and kept for later checks.
class SubgroupSizeDevices {
  public:
    // `factory` opens a device for ContextOptions (a worker process: see above); checks ask
    // their drivers to compile fast when `quickCompile`.
    explicit SubgroupSizeDevices(RunnerFactory factory, bool quickCompile = true);
    ~SubgroupSizeDevices();

    // The CPU device started with `lanes` lanes (with kEmulatingLanes, a worker of its own, for
    // an emulated size); an error says why there is none (and is kept: a machine without
    // lavapipe is not asked again at every check).
    Result<DeviceRunner*> device(uint32_t lanes);
    // Stops what every device runs now (their worker processes are restarted at the next run);
    // safe from another thread.
    void interrupt();

  private:
    RunnerFactory m_factory;
    bool m_quickCompile = true;
    std::mutex m_mutex;
    std::map<uint32_t, std::unique_ptr<DeviceRunner>> m_devices;
    std::map<uint32_t, Error> m_failures;
};

// Told as each size's run ends: the report so far (its otherSizes in order of size) and that run.
using SizeEnded = std::function<void(const CheckReport& sofar, const SubgroupSizeRun& ended)>;

// The cases of `report` (a check of `sources` on the device's own size) run again at each size
// of sizesBeside (traced as options say), every size on a thread of its own. A case whose
// workgroups are one subgroup at a size and at a smaller one (or the device's own, where it
// passed) runs only at the smallest: the larger carry its verdict (SubgroupSizeRun::carried),
// unless the kernel reads gl_SubgroupSize or a mask sized by it. Each size's run joins
// report.otherSizes (kept in order of size) as it ends, and onSize is called (under a lock: one
// call at a time). Nothing is run when the kernels use no subgroup, or the check did not run its
// cases. options.stopRequested ends every size's run early (those runs are then left out).
void checkOtherSubgroupSizes(const Compiler& compiler, SubgroupSizeDevices& devices,
                             const Puzzle& puzzle, const std::vector<KernelSource>& sources,
                             const CheckOptions& options, CheckReport& report,
                             const SizeEnded& onSize = {});

// Whether checkOtherSubgroupSizes has something to run for this report: some kernel uses
// subgroups and a case ran to the end (only those run again: a case that never finished has had
// its budget). (A front end says "also checking at 4 and 16 lanes" first.)
bool subgroupSizesApply(const CheckReport& report);

// What the runs at other sizes say, in one sentence; empty where they say nothing new (none ran,
// or every size failed alike):
//   "right with 8 lanes, wrong with 4 and 16: does the kernel assume a subgroup size?"
//   "wrong with 4, 8 and 16 lanes, and differently with each: does the kernel assume ..."
std::string subgroupSizeVerdict(const Puzzle& puzzle, const CheckReport& report);

// "4 and 16 lanes", "4, 8 and 16 lanes", "16 and 64 lanes (64 emulated)" (in increasing order).
// One size: "4 lanes", "64 lanes (emulated)".
std::string lanesText(const std::vector<uint32_t>& lanes);
std::string sizeName(uint32_t lanes);
// What a size's run says of the cases it carries: "" for none, "case 8 as with 4 lanes, cases 1 and
// 2 as with 16 (a workgroup is one subgroup at both sizes)".
std::string carriedText(const SubgroupSizeRun& run);

} // namespace vkp
