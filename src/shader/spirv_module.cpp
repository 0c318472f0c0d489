#include "shader/spirv_module.h"

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>

namespace vkp {

std::string spirvString(std::span<const uint32_t> operands, size_t first) {
    std::string s;
    for (size_t i = first; i < operands.size(); ++i)
        for (int b = 0; b < 4; ++b) {
            char c = static_cast<char>((operands[i] >> (8 * b)) & 0xff);
            if (c == 0) return s;
            s += c;
        }
    return s;
}

Result<SpirvModule> SpirvModule::parse(std::span<const uint32_t> words) {
    auto bad = [](std::string msg) { return Error{ErrorKind::Internal, "invalid SPIR-V: " + msg}; };
    if (words.size() < 5) return bad("shorter than its header");
    if (words[0] != spv::MagicNumber) return bad("wrong magic number");
    SpirvModule m;
    m.m_words.assign(words.begin(), words.end());
    for (size_t at = 5; at < m.m_words.size();) {
        uint32_t count = m.m_words[at] >> 16;
        if (count == 0 || at + count > m.m_words.size())
            return bad("truncated instruction at word " + std::to_string(at));
        std::span<const uint32_t> all(m.m_words.data() + at, count);
        m.m_instructions.push_back({all[0] & 0xffff, all.subspan(1)});
        at += count;
    }
    m.index();
    return m;
}

namespace {

// Operands the instructions that reflection reads must have; shorter ones are not indexed as
// definitions, so lookups treat them as unknown instead of reading past their end.
size_t minimumOperands(spv::Op op) {
    switch (op) {
    case spv::Op::OpTypeFloat: case spv::Op::OpTypeRuntimeArray: return 2;
    case spv::Op::OpTypeInt: case spv::Op::OpTypeVector: case spv::Op::OpTypeMatrix: case spv::Op::OpTypeArray:
    case spv::Op::OpTypePointer: case spv::Op::OpConstant: case spv::Op::OpSpecConstant: case spv::Op::OpVariable:
        return 3;
    case spv::Op::OpSpecConstantOp: return 5;
    default: return 0;
    }
}

} // namespace

void SpirvModule::index() {
    for (size_t i = 0; i < m_instructions.size(); ++i) {
        const SpirvInstruction& ins = m_instructions[i];
        auto op = static_cast<spv::Op>(ins.opcode);
        auto o = ins.operands;
        if (op == spv::Op::OpName && o.size() >= 2) m_names[o[0]] = spirvString(o, 1);
        else if (op == spv::Op::OpMemberName && o.size() >= 3) m_memberNames[{o[0], o[1]}] = spirvString(o, 2);
        else if (op == spv::Op::OpDecorate && o.size() >= 2) m_decorations[{o[0], o[1]}] = o.size() > 2 ? o[2] : 0;
        else if (op == spv::Op::OpMemberDecorate && o.size() >= 3)
            m_memberDecorations[{o[0], o[1], o[2]}] = o.size() > 3 ? o[3] : 0;
        bool hasResult = false, hasType = false;
        spv::HasResultAndType(op, &hasResult, &hasType);
        size_t resultAt = hasType ? 1 : 0;
        if (hasResult && o.size() > resultAt && o.size() >= minimumOperands(op)) m_definitions[o[resultAt]] = i;
    }
}

std::string SpirvModule::name(uint32_t id) const {
    auto it = m_names.find(id);
    return it == m_names.end() ? std::string() : it->second;
}

std::string SpirvModule::memberName(uint32_t structId, uint32_t member) const {
    auto it = m_memberNames.find({structId, member});
    return it == m_memberNames.end() ? std::string() : it->second;
}

std::optional<uint32_t> SpirvModule::decoration(uint32_t id, uint32_t decoration) const {
    auto it = m_decorations.find({id, decoration});
    if (it == m_decorations.end()) return std::nullopt;
    return it->second;
}

const SpirvInstruction* SpirvModule::definition(uint32_t id) const {
    auto it = m_definitions.find(id);
    return it == m_definitions.end() ? nullptr : &m_instructions[it->second];
}

std::optional<uint32_t> SpirvModule::memberDecoration(uint32_t structId, uint32_t member, uint32_t decoration) const {
    auto it = m_memberDecorations.find({structId, member, decoration});
    if (it == m_memberDecorations.end()) return std::nullopt;
    return it->second;
}

} // namespace vkp
