#include "shader/spirv_editor.h"

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>

#include "shader/spirv_module.h"

namespace vkp {
namespace {

using Op = spv::Op;

bool isAnnotation(Op op) {
    return op == Op::OpDecorate || op == Op::OpMemberDecorate || op == Op::OpDecorationGroup ||
           op == Op::OpGroupDecorate || op == Op::OpGroupMemberDecorate || op == Op::OpDecorateId ||
           op == Op::OpDecorateString || op == Op::OpMemberDecorateString;
}

bool isPreamble(Op op) {
    switch (op) {
    case Op::OpCapability: case Op::OpExtension: case Op::OpExtInstImport: case Op::OpMemoryModel:
    case Op::OpEntryPoint: case Op::OpExecutionMode: case Op::OpExecutionModeId: case Op::OpString:
    case Op::OpSourceExtension: case Op::OpSource: case Op::OpSourceContinued: case Op::OpName:
    case Op::OpMemberName: case Op::OpModuleProcessed:
        return true;
    default:
        return isAnnotation(op);
    }
}

} // namespace

Result<SpirvEditor> SpirvEditor::parse(std::span<const uint32_t> words) {
    auto m = SpirvModule::parse(words);
    if (!m) return m.error();
    SpirvEditor e;
    e.m_version = words[1];
    e.m_generator = words[2];
    e.m_bound = words[3];
    bool inFunctions = false;
    for (const SpirvInstruction& ins : m->instructions()) {
        SpvInst s{ins.opcode, {ins.operands.begin(), ins.operands.end()}};
        auto op = static_cast<Op>(ins.opcode);
        if (op == Op::OpFunction) inFunctions = true;
        e.noteDefinition(s);
        if (inFunctions) e.functions.push_back(std::move(s));
        else if (isPreamble(op)) e.preamble.push_back(std::move(s));
        else e.globals.push_back(std::move(s));
    }
    return e;
}

void SpirvEditor::noteDefinition(const SpvInst& s) {
    bool hasResult = false, hasType = false;
    spv::HasResultAndType(static_cast<Op>(s.op), &hasResult, &hasType);
    if (!hasResult) return;
    size_t at = hasType ? 1 : 0;
    if (s.w.size() <= at) return;
    m_defs[s.w[at]] = s;
    if (hasType) m_types[s.w[at]] = s.w[0];
}

std::vector<uint32_t> SpirvEditor::assemble() const {
    std::vector<uint32_t> out = {spv::MagicNumber, m_version, m_generator, m_bound, 0};
    auto emit = [&](const SpvInst& s) {
        out.push_back((uint32_t(s.w.size() + 1) << 16) | s.op);
        out.insert(out.end(), s.w.begin(), s.w.end());
    };
    size_t lastAnnotation = 0;
    for (size_t i = 0; i < preamble.size(); ++i)
        if (isAnnotation(static_cast<Op>(preamble[i].op))) lastAnnotation = i + 1;
    if (lastAnnotation == 0) lastAnnotation = preamble.size();
    for (size_t i = 0; i < lastAnnotation; ++i) emit(preamble[i]);
    for (const SpvInst& s : newAnnotations) emit(s);
    for (size_t i = lastAnnotation; i < preamble.size(); ++i) emit(preamble[i]);
    for (const auto* list : {&globals, &newGlobals, &functions, &newFunctions})
        for (const SpvInst& s : *list) emit(s);
    return out;
}

uint32_t SpirvEditor::findOrAddType(uint32_t op, std::vector<uint32_t> operands) {
    for (const auto* list : {&globals, &newGlobals})
        for (const SpvInst& s : *list)
            if (s.op == op && s.w.size() == operands.size() + 1 && std::equal(operands.begin(), operands.end(), s.w.begin() + 1))
                return s.w[0];
    uint32_t id = newId();
    SpvInst s{op, {id}};
    s.w.insert(s.w.end(), operands.begin(), operands.end());
    noteDefinition(s);
    newGlobals.push_back(std::move(s));
    return id;
}

uint32_t SpirvEditor::typeVoid() { return findOrAddType(uint32_t(Op::OpTypeVoid), {}); }
uint32_t SpirvEditor::typeBool() { return findOrAddType(uint32_t(Op::OpTypeBool), {}); }
uint32_t SpirvEditor::typeUint() { return findOrAddType(uint32_t(Op::OpTypeInt), {32, 0}); }
uint32_t SpirvEditor::typeVector(uint32_t c, uint32_t n) { return findOrAddType(uint32_t(Op::OpTypeVector), {c, n}); }
uint32_t SpirvEditor::typePointer(uint32_t sc, uint32_t t) { return findOrAddType(uint32_t(Op::OpTypePointer), {sc, t}); }
uint32_t SpirvEditor::typeFunction(uint32_t r, std::vector<uint32_t> params) {
    params.insert(params.begin(), r);
    return findOrAddType(uint32_t(Op::OpTypeFunction), params);
}

uint32_t SpirvEditor::constUint(uint32_t value) {
    uint32_t u = typeUint();
    for (const auto* list : {&globals, &newGlobals})
        for (const SpvInst& s : *list)
            if (s.op == uint32_t(Op::OpConstant) && s.w.size() == 3 && s.w[0] == u && s.w[2] == value) return s.w[1];
    uint32_t id = newId();
    SpvInst s{uint32_t(Op::OpConstant), {u, id, value}};
    noteDefinition(s);
    newGlobals.push_back(s);
    return id;
}

uint32_t SpirvEditor::undef(uint32_t type) {
    for (const SpvInst& s : newGlobals)
        if (s.op == uint32_t(Op::OpUndef) && s.w[0] == type) return s.w[1];
    uint32_t id = newId();
    SpvInst s{uint32_t(Op::OpUndef), {type, id}};
    noteDefinition(s);
    newGlobals.push_back(s);
    return id;
}

const SpvInst* SpirvEditor::def(uint32_t id) const {
    auto it = m_defs.find(id);
    return it == m_defs.end() ? nullptr : &it->second;
}

uint32_t SpirvEditor::typeOf(uint32_t id) const {
    auto it = m_types.find(id);
    return it == m_types.end() ? 0 : it->second;
}

std::vector<uint32_t> SpirvEditor::decorations(uint32_t id, uint32_t decoration) const {
    for (const SpvInst& s : preamble)
        if (s.op == uint32_t(Op::OpDecorate) && s.w.size() >= 2 && s.w[0] == id && s.w[1] == decoration)
            return {s.w.begin() + 2, s.w.end()};
    return {};
}

bool SpirvEditor::hasDecoration(uint32_t id, uint32_t decoration) const {
    for (const SpvInst& s : preamble)
        if (s.op == uint32_t(Op::OpDecorate) && s.w.size() >= 2 && s.w[0] == id && s.w[1] == decoration) return true;
    return false;
}

std::string SpirvEditor::name(uint32_t id) const {
    for (const SpvInst& s : preamble)
        if (s.op == uint32_t(Op::OpName) && !s.w.empty() && s.w[0] == id) return spirvString(s.w, 1);
    return {};
}

std::string SpirvEditor::memberName(uint32_t id, uint32_t member) const {
    for (const SpvInst& s : preamble)
        if (s.op == uint32_t(Op::OpMemberName) && s.w.size() >= 2 && s.w[0] == id && s.w[1] == member) return spirvString(s.w, 2);
    return {};
}

} // namespace vkp
