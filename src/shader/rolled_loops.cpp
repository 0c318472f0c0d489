#include "shader/rolled_loops.h"

#include <spirv/unified1/spirv.hpp>

namespace vkp {

Result<std::vector<uint32_t>> keepLoopsRolled(std::span<const uint32_t> spirv) {
    constexpr size_t kHeaderWords = 5;
    if (spirv.size() < kHeaderWords || spirv[0] != spv::MagicNumber)
        return Error{ErrorKind::Internal, "not a SPIR-V module"};
    // The bits that take literal operands, in the order their literals follow the mask.
    constexpr uint32_t kWithLiteral[] = {uint32_t(spv::LoopControlDependencyLengthMask),
                                         uint32_t(spv::LoopControlMinIterationsMask),
                                         uint32_t(spv::LoopControlMaxIterationsMask),
                                         uint32_t(spv::LoopControlIterationMultipleMask),
                                         uint32_t(spv::LoopControlPeelCountMask),
                                         uint32_t(spv::LoopControlPartialCountMask)};
    constexpr uint32_t kDropped = uint32_t(spv::LoopControlUnrollMask) |
                                  uint32_t(spv::LoopControlPeelCountMask) |
                                  uint32_t(spv::LoopControlPartialCountMask);
    std::vector<uint32_t> out(spirv.begin(), spirv.begin() + kHeaderWords);
    out.reserve(spirv.size());
    for (size_t at = kHeaderWords; at < spirv.size();) {
        uint32_t words = spirv[at] >> 16;
        if (words == 0 || at + words > spirv.size())
            return Error{ErrorKind::Internal, "a SPIR-V instruction runs past the module's end"};
        auto inst = spirv.subspan(at, words);
        at += words;
        if (spv::Op(inst[0] & 0xffff) != spv::Op::OpLoopMerge || words < 4) {
            out.insert(out.end(), inst.begin(), inst.end());
            continue;
        }
        uint32_t mask = inst[3];
        if (mask & ~0x1ffu) { // a vendor's loop control: its literals are not known here
            out.insert(out.end(), inst.begin(), inst.end());
            continue;
        }
        std::vector<uint32_t> literals;
        size_t next = 4;
        for (uint32_t bit : kWithLiteral) {
            if (!(mask & bit)) continue;
            if (next >= words) return Error{ErrorKind::Internal, "an OpLoopMerge lacks a literal"};
            uint32_t literal = inst[next++];
            if (!(bit & kDropped)) literals.push_back(literal);
        }
        uint32_t newMask = (mask & ~kDropped) | uint32_t(spv::LoopControlDontUnrollMask);
        out.push_back(uint32_t(4 + literals.size()) << 16 | uint32_t(spv::Op::OpLoopMerge));
        out.push_back(inst[1]);
        out.push_back(inst[2]);
        out.push_back(newMask);
        out.insert(out.end(), literals.begin(), literals.end());
    }
    return out;
}

} // namespace vkp
