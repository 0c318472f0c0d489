#include "shader/spirv_tools.h"

#include <string>

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

namespace vkp {

Result<std::vector<uint32_t>> stripDebugInfo(std::span<const uint32_t> spirv) {
    spvtools::Optimizer strip(SPV_ENV_VULKAN_1_2);
    strip.RegisterPass(spvtools::CreateStripDebugInfoPass());
    std::vector<uint32_t> out;
    if (!strip.Run(spirv.data(), spirv.size(), &out))
        return Error{ErrorKind::Internal, "could not strip the kernel's debug information"};
    return out;
}

Status validateSpirv(std::span<const uint32_t> spirv) {
    spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
    std::string messages;
    tools.SetMessageConsumer(
        [&](spv_message_level_t, const char*, const spv_position_t& pos, const char* msg) {
            messages += "word " + std::to_string(pos.index) + ": " + msg + "\n";
        });
    if (tools.Validate(spirv.data(), spirv.size())) return okStatus();
    return Error{ErrorKind::Internal, "invalid SPIR-V: " + messages};
}

} // namespace vkp
