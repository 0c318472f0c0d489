// Opening the DeviceRunner that checks run on, in an isolated worker process or in this one: the
// one way the CLI, the app and the live session start a device (they differ only in options).
#pragma once

#include <functional>
#include <memory>

#include "base/result.h"
#include "device/device_options.h"

namespace vkp {

class DeviceRunner;
class GpuContext;

enum class RunnerPlaceKind {
    Worker, // a worker process (this executable with --worker): an endless loop costs a restart of
            // it
    InProcess, // a device of this process (--in-process, tests)
};

struct RunnerOptions {
    ContextOptions context;                          // which device, and the validation layer
    RunnerPlaceKind place = RunnerPlaceKind::Worker; // where kernels run
};

struct OpenedRunner {
    std::unique_ptr<DeviceRunner> runner; // never null
    GpuContext* gpu = nullptr; // in this process: the runner's own device (its validation
                               // messages); null for a worker
};

// Starts the worker and waits for its device, or opens a device here. Slow (a device takes up to
// seconds): callers overlap it with the compiler's warm-up.
Result<OpenedRunner> openRunner(const RunnerOptions& options);

// Opens the device checks run on for a given device selection (LiveSession, BackgroundBench).
using RunnerFactory = std::function<Result<std::unique_ptr<DeviceRunner>>(const ContextOptions&)>;

// openRunner in `place`, as a factory (the app hands it to the Workbench).
RunnerFactory runnerFactory(RunnerPlaceKind place);

// A runner from `factory`, or a device of this process when it is empty.
Result<std::unique_ptr<DeviceRunner>> openDeviceRunner(const RunnerFactory& factory,
                                                       const ContextOptions& options);

} // namespace vkp
