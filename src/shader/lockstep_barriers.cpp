#include "shader/lockstep_barriers.h"

#include <map>

#include <spirv/unified1/spirv.hpp11>

namespace vkp {
namespace {

constexpr size_t kHeaderWords = 5;

spv::Op opcodeOf(uint32_t firstWord) { return static_cast<spv::Op>(firstWord & spv::OpCodeMask); }

// Walks the instructions after the header; false when one is truncated or has length 0.
template <typename Visit>
bool forEachInstruction(std::span<const uint32_t> words, Visit visit) {
    for (size_t at = kHeaderWords; at < words.size();) {
        uint32_t length = words[at] >> spv::WordCountShift;
        if (length == 0 || at + length > words.size()) return false;
        visit(words.subspan(at, length));
        at += length;
    }
    return true;
}

} // namespace

Result<std::vector<uint32_t>> lockstepSubgroupBarriers(std::span<const uint32_t> words) {
    auto malformed = [] { return Error{ErrorKind::Internal, "the SPIR-V module to adapt to lavapipe is malformed"}; };
    if (words.size() < kHeaderWords || words[0] != spv::MagicNumber) return malformed();
    std::map<uint32_t, uint32_t> constants; // OpConstant result id -> its (32-bit) value
    bool ok = forEachInstruction(words, [&](std::span<const uint32_t> inst) {
        if (opcodeOf(inst[0]) == spv::Op::OpConstant && inst.size() == 4) constants[inst[2]] = inst[3];
    });
    if (!ok) return malformed();
    std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
    out.reserve(words.size());
    forEachInstruction(words, [&](std::span<const uint32_t> inst) {
        bool control = opcodeOf(inst[0]) == spv::Op::OpControlBarrier && inst.size() == 4;
        auto scope = control ? constants.find(inst[1]) : constants.end();
        if (scope != constants.end() && scope->second == static_cast<uint32_t>(spv::Scope::Subgroup)) {
            out.push_back((3u << spv::WordCountShift) | static_cast<uint32_t>(spv::Op::OpMemoryBarrier));
            out.push_back(inst[2]); // memory scope
            out.push_back(inst[3]); // memory semantics
            return;
        }
        out.insert(out.end(), inst.begin(), inst.end());
    });
    return out;
}

} // namespace vkp
