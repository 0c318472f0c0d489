// SPIRV-Tools on a module: its validator, and the module without its debug information. Both run
// in this process; front ends validate through Compiler::validate (shader/compiler.h), which runs
// the validator in the compiler's helper process.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/result.h"

namespace vkp {

// The module without its debug information (source lines and text, names): what a device needs.
// Two texts whose code is the same (a comment or a blank line apart) give the same words, so the
// pipelines built for one serve the other (gpu/pipeline_store.h, and the drivers' caches).
Result<std::vector<uint32_t>> stripDebugInfo(std::span<const uint32_t> spirv);

// The SPIR-V validator (Vulkan 1.2 rules); the error lists its messages.
Status validateSpirv(std::span<const uint32_t> spirv);

} // namespace vkp
