// A device's facts as they travel in a message (base/wire_describe.h): from the worker to the
// app, and in a case file (report/case_file.h).
#pragma once

#include "device/device_info.h"

namespace vkp {

// M is DeviceInfo when reading and const DeviceInfo when writing.
template <class Io, class M> bool describeDeviceInfo(Io& io, M& i) {
    bool ok = io.num(i.index) && io.str(i.name) && io.num(i.type, DeviceTypeKind::Other) &&
              io.str(i.apiVersion) && io.str(i.driver) && io.num(i.usable) &&
              io.str(i.whyUnusable) && io.num(i.subgroupSize) && io.num(i.subgroupOperations) &&
              io.num(i.shaderFeatures) && io.num(i.maxWorkgroupInvocations);
    for (auto& v : i.maxWorkgroupSize)
        ok = ok && io.num(v);
    for (auto& v : i.maxWorkgroupCount)
        ok = ok && io.num(v);
    return ok && io.num(i.maxSharedMemoryBytes) && io.num(i.maxStorageBufferRange) &&
           io.num(i.timestampPeriodNs) && io.num(i.robustBufferAccess) &&
           io.num(i.pipelineStatistics) && io.num(i.lockstepSubgroups);
}

} // namespace vkp
