// libFuzzer target: SPIR-V parsing and reflection (what the interface check reads from a
// learner's compiled kernel) on arbitrary words must not crash or read out of bounds.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "shader/reflect.h"
#include "shader/spirv_module.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<uint32_t> words(size / 4);
    if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
    if (words.size() >= 1) words[0] = 0x07230203; // get past the magic number check more often
    auto r = vkp::reflectKernel(words);
    if (r) {
        std::map<uint32_t, uint32_t> constants = {{3, 7}};
        (void)r->sharedBytes(constants);
    }
    auto e = vkp::SpirvModule::parse(words);
    if (e) (void)e->assemble();
    return 0;
}
