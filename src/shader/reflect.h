// What a compiled kernel declares: its buffer bindings, specialization constants and local size.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "reference/buffer_data.h"
#include "trace/trace.h"

namespace vkp {

class SpirvModule;

struct KernelBinding {
    uint32_t set = 0;
    uint32_t binding = 0;
    std::string blockName;     // "A" in `buffer A { float a[]; }`
    std::string arrayName;     // "a", the block's first member
    bool storageBuffer = true; // false for a uniform block
    // The block holds exactly one runtime array of 32-bit scalars, or of vec2s or vec4s of them
    // (a vector view: `vec4 a4[]` reads the puzzle's floats four at a time).
    bool singleRuntimeArray = false;
    std::optional<ElementKind> elementType; // that array's scalars, when float/int/uint 32-bit
    uint32_t elementWidth = 1;              // scalars per element: 1, or 2 and 4 for a vector view
    uint32_t arrayStride = 0;    // bytes from one element to the next as laid out (0: not given)
    std::string elementTypeText; // how to name what was found in messages, e.g. "vec4", "double"
    // Declared `coherent` / `volatile` (on the variable, or on the block's first member, where
    // glslang puts a block's qualifiers).
    bool coherent = false;
    bool isVolatile = false;
};

// A descriptor that is not a buffer block (an image, a sampler, a texel buffer): puzzles give
// kernels storage buffers only, so each is an interface error.
struct KernelOtherResource {
    uint32_t set = 0, binding = 0;
    std::string name; // as declared, or ""
    std::string what; // "an image", "a sampler", "a texel buffer", ...
};

// A shared (workgroup) variable: its array dimensions, which may be specialization constants.
struct KernelSharedArray {
    uint32_t variableId = 0; // SPIR-V id
    std::string name;
    std::vector<SizeExpr> dims;             // outermost first; empty for a scalar
    uint32_t elementBytes = 4;              // of the innermost element (a vec4: 16)
    uint32_t elementWidth = 1;              // scalars per innermost element (a vec4: 4)
    std::optional<ElementKind> elementType; // when the scalars are 32-bit float/int/uint

    uint64_t bytes(const std::map<uint32_t, uint32_t>& constants) const;
};

struct KernelSpecConstant {
    uint32_t id = 0;       // constant_id
    std::string name;      // as declared
    uint32_t resultId = 0; // the SPIR-V id of the constant
};

// A member of the kernel's push-constant block (`layout(push_constant) uniform P { uint step; }`):
// what a pass of a multi-pass puzzle sets before each dispatch.
struct KernelPushMember {
    std::string name;
    uint32_t offset = 0;             // bytes
    std::optional<ElementKind> type; // 32-bit float/int/uint; empty for anything else
    std::string typeText;            // for messages
};

// Something a kernel uses that a device may lack (device/device_info.h): a family of subgroup
// operations (a SubgroupFeature bit) or an optional kind of number (a ShaderFeature bit), with
// the source line of its first use (0: the module has no line information, or only a built-in
// such as gl_SubgroupSize or a declaration needs it).
struct KernelFeatureUse {
    uint32_t feature = 0;
    uint32_t line = 0;
};

struct KernelInterface {
    std::vector<KernelBinding> bindings;
    std::vector<KernelOtherResource> otherResources;
    std::vector<KernelSpecConstant> specConstants; // user constants (not the workgroup size)
    std::array<std::optional<uint32_t>, 3> fixedLocalSize;      // set where the size is a literal
    std::array<bool, 3> localSizeFromSpec{false, false, false}; // local_size_*_id used
    std::array<uint32_t, 3> localSizeSpecIds{0, 1, 2};          // which ids they use
    // The constant each size is read from, where one is (a spec constant or a plain one behind
    // gl_WorkGroupSize or LocalSizeId); 0 where a LocalSize literal gives it.
    std::array<uint32_t, 3> localSizeIds{0, 0, 0};
    std::vector<uint32_t>
        localSizeConstantIds; // result ids of the spec constants that size the workgroup
    std::vector<KernelSharedArray> shared;
    std::vector<KernelPushMember> push;         // the push-constant block's members
    uint32_t pushBytes = 0;                     // its size: the end of its last member
    std::vector<KernelFeatureUse> subgroupUses; // each family once, in the order first used
    bool usesAtomics = false; // some instruction is an atomic operation (isAtomicOp)
    // It reads what tells subgroup sizes apart even where a workgroup is one subgroup:
    // gl_SubgroupSize, or a mask with bits up to it (gl_SubgroupGeMask, gl_SubgroupGtMask).
    bool readsSubgroupSize = false;
    std::vector<KernelFeatureUse> numberUses; // each kind of number once

    // Shared memory the kernel needs for these constant values.
    uint64_t sharedBytes(const std::map<uint32_t, uint32_t>& constants) const;
    // Whether it uses this ShaderFeature (a kind of number, cooperative matrices).
    bool uses(uint32_t feature) const {
        return std::any_of(numberUses.begin(), numberUses.end(),
                           [&](const KernelFeatureUse& u) { return u.feature == feature; });
    }
};

// Reads the interface from SPIR-V words; an error only for malformed SPIR-V.
Result<KernelInterface> reflectKernel(std::span<const uint32_t> spirv);

// The element kind of a 32-bit float/int/uint type id; empty for any other type.
std::optional<ElementKind> scalarKind(const SpirvModule& module, uint32_t typeId);

// What a buffer's runtime array may hold: a 32-bit float/int/uint, or a vector of 2 or 4 of them
// (a vector view of the puzzle's scalars). Its scalars' kind and how many an element has; empty
// for any other type (a vec3, which a buffer pads to 16 bytes, included).
struct BufferElement {
    ElementKind type = ElementKind::Float;
    uint32_t width = 1;
};
std::optional<BufferElement> bufferElement(const SpirvModule& module, uint32_t typeId);

} // namespace vkp
