#define SPV_ENABLE_UTILITY_CODE // spv::HasResultAndType
#include "shader/spirv_module.h"

#include <algorithm>

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
    case Op::OpCapability:
    case Op::OpExtension:
    case Op::OpExtInstImport:
    case Op::OpMemoryModel:
    case Op::OpEntryPoint:
    case Op::OpExecutionMode:
    case Op::OpExecutionModeId:
    case Op::OpString:
    case Op::OpSourceExtension:
    case Op::OpSource:
    case Op::OpSourceContinued:
    case Op::OpName:
    case Op::OpMemberName:
    case Op::OpModuleProcessed:
        return true;
    default:
        return isAnnotation(op);
    }
}

// Words after the opcode that the instructions lookups read must have; shorter ones are not
// indexed as definitions, so lookups treat them as unknown instead of reading past their end.
size_t minimumWords(Op op) {
    switch (op) {
    case Op::OpTypeFloat:
    case Op::OpTypeRuntimeArray:
        return 2;
    case Op::OpTypeInt:
    case Op::OpTypeVector:
    case Op::OpTypeMatrix:
    case Op::OpTypeArray:
    case Op::OpTypePointer:
    case Op::OpConstant:
    case Op::OpSpecConstant:
    case Op::OpVariable:
        return 3;
    case Op::OpSpecConstantOp:
        return 5;
    default:
        return 0;
    }
}

} // namespace

SpirvInstruction::SpirvInstruction(spv::Op opcode, std::vector<uint32_t> words)
    : m_opcode(opcode), m_words(std::move(words)) {
    spv::HasResultAndType(opcode, &m_hasResult, &m_hasResultType);
}

std::span<const uint32_t> SpirvInstruction::operands(size_t from) const {
    size_t at = std::min(firstOperand() + from, m_words.size());
    return std::span<const uint32_t>(m_words).subspan(at);
}

std::string SpirvInstruction::literalString(size_t k) const {
    std::string s;
    for (uint32_t w : operands(k))
        for (int b = 0; b < 4; ++b) {
            char c = static_cast<char>((w >> (8 * b)) & 0xff);
            if (c == 0) return s;
            s += c;
        }
    return s;
}

size_t SpirvInstruction::afterLiteralString(size_t k) const {
    // The string's last word holds its nul, so its top byte is 0.
    size_t at = k;
    while (at < operandCount() && (operand(at) >> 24) != 0)
        ++at;
    return at + 1;
}

Result<SpirvModule> SpirvModule::parse(std::span<const uint32_t> words) {
    auto bad = [](std::string msg) { return Error{ErrorKind::Internal, "invalid SPIR-V: " + msg}; };
    if (words.size() < 5) return bad("shorter than its header");
    if (words[0] != spv::MagicNumber) return bad("wrong magic number");
    SpirvModule m;
    m.m_version = words[1];
    m.m_generator = words[2];
    m.m_bound = words[3];
    bool inFunctions = false;
    for (size_t at = 5; at < words.size();) {
        uint32_t count = words[at] >> spv::WordCountShift;
        if (count == 0 || at + count > words.size())
            return bad("truncated instruction at word " + std::to_string(at));
        auto op = static_cast<Op>(words[at] & spv::OpCodeMask);
        SpirvInstruction inst(op, {words.begin() + at + 1, words.begin() + at + count});
        at += count;
        m.index(inst);
        if (op == Op::OpFunction) inFunctions = true;
        if (inFunctions)
            m.functions.push_back(std::move(inst));
        else if (isPreamble(op))
            m.preamble.push_back(std::move(inst));
        else
            m.globals.push_back(std::move(inst));
    }
    return m;
}

void SpirvModule::index(const SpirvInstruction& inst) {
    auto o = inst.operands();
    switch (inst.opcode()) {
    case Op::OpName:
        if (o.size() >= 2) m_names[o[0]] = inst.literalString(1);
        break;
    case Op::OpMemberName:
        if (o.size() >= 3) m_memberNames[{o[0], o[1]}] = inst.literalString(2);
        break;
    case Op::OpDecorate:
        if (o.size() >= 2) m_decorations[{o[0], o[1]}] = inst.operand(2);
        break;
    case Op::OpMemberDecorate:
        if (o.size() >= 3) m_memberDecorations[{o[0], o[1], o[2]}] = inst.operand(3);
        break;
    case Op::OpString: // a result id, then the string
        m_strings[inst.resultId()] = inst.literalString(0);
        break;
    default:
        break;
    }
    noteDefinition(inst);
}

void SpirvModule::noteDefinition(const SpirvInstruction& inst) {
    bool hasResult = false, hasType = false;
    spv::HasResultAndType(inst.opcode(), &hasResult, &hasType);
    size_t needed =
        std::max<size_t>(size_t(hasResult) + size_t(hasType), minimumWords(inst.opcode()));
    if (hasResult && inst.words().size() >= needed) m_definitions[inst.resultId()] = inst;
}

std::vector<SpirvInstruction> SpirvModule::instructions() const {
    std::vector<SpirvInstruction> all;
    for (const auto* list :
         {&preamble, &newAnnotations, &globals, &newGlobals, &functions, &newFunctions})
        all.insert(all.end(), list->begin(), list->end());
    return all;
}

std::vector<uint32_t> SpirvModule::assemble() const {
    std::vector<uint32_t> out = {spv::MagicNumber, m_version, m_generator, m_bound, 0};
    auto emitWords = [&](const SpirvInstruction& inst) {
        out.push_back((uint32_t(inst.words().size() + 1) << spv::WordCountShift) |
                      uint32_t(inst.opcode()));
        out.insert(out.end(), inst.words().begin(), inst.words().end());
    };
    size_t lastAnnotation = 0;
    for (size_t i = 0; i < preamble.size(); ++i)
        if (isAnnotation(preamble[i].opcode())) lastAnnotation = i + 1;
    if (lastAnnotation == 0) lastAnnotation = preamble.size();
    for (size_t i = 0; i < lastAnnotation; ++i)
        emitWords(preamble[i]);
    for (const SpirvInstruction& inst : newAnnotations)
        emitWords(inst);
    for (size_t i = lastAnnotation; i < preamble.size(); ++i)
        emitWords(preamble[i]);
    for (const auto* list : {&globals, &newGlobals, &functions, &newFunctions})
        for (const SpirvInstruction& inst : *list)
            emitWords(inst);
    return out;
}

const SpirvInstruction* SpirvModule::definition(uint32_t id) const {
    auto it = m_definitions.find(id);
    return it == m_definitions.end() ? nullptr : &it->second;
}

uint32_t SpirvModule::typeOf(uint32_t id) const {
    const SpirvInstruction* d = definition(id);
    return d ? d->resultType() : 0;
}

std::string SpirvModule::name(uint32_t id) const {
    auto it = m_names.find(id);
    return it == m_names.end() ? std::string() : it->second;
}

std::string SpirvModule::memberName(uint32_t structId, uint32_t member) const {
    auto it = m_memberNames.find({structId, member});
    return it == m_memberNames.end() ? std::string() : it->second;
}

std::string SpirvModule::stringLiteral(uint32_t stringId) const {
    auto it = m_strings.find(stringId);
    return it == m_strings.end() ? std::string() : it->second;
}

std::optional<uint32_t> SpirvModule::decoration(uint32_t id, spv::Decoration decoration) const {
    auto it = m_decorations.find({id, uint32_t(decoration)});
    if (it == m_decorations.end()) return std::nullopt;
    return it->second;
}

std::optional<uint32_t> SpirvModule::memberDecoration(uint32_t structId, uint32_t member,
                                                      spv::Decoration decoration) const {
    auto it = m_memberDecorations.find({structId, member, uint32_t(decoration)});
    if (it == m_memberDecorations.end()) return std::nullopt;
    return it->second;
}

SpirvInstruction* SpirvModule::entryPoint() {
    for (SpirvInstruction& inst : preamble)
        if (inst.opcode() == Op::OpEntryPoint) return &inst;
    return nullptr;
}

spv::Scope SpirvModule::dispatchScope() const {
    for (const SpirvInstruction& inst : preamble)
        if (inst.opcode() == Op::OpMemoryModel && inst.operandCount() >= 2 &&
            inst.operand(1) == uint32_t(spv::MemoryModel::Vulkan))
            return spv::Scope::QueueFamily;
    return spv::Scope::Device;
}

void SpirvModule::addToInterface(uint32_t variable) {
    SpirvInstruction* entry = entryPoint();
    if (!entry) return;
    // Operands: execution model, function, name (a literal string), then the interface ids.
    auto interface = entry->operands(entry->afterLiteralString(2));
    if (std::find(interface.begin(), interface.end(), variable) == interface.end())
        entry->appendOperand(variable);
}

void SpirvModule::requireCapability(spv::Capability capability) {
    for (const SpirvInstruction& inst : preamble)
        if (inst.opcode() == Op::OpCapability && inst.operand(0) == uint32_t(capability)) return;
    preamble.insert(preamble.begin(), SpirvInstruction(Op::OpCapability, {uint32_t(capability)}));
}

uint32_t SpirvModule::findOrAddType(Op opcode, std::vector<uint32_t> operands) {
    for (const auto* list : {&globals, &newGlobals})
        for (const SpirvInstruction& inst : *list) {
            auto have = inst.operands();
            if (inst.opcode() == opcode &&
                std::equal(have.begin(), have.end(), operands.begin(), operands.end()))
                return inst.resultId();
        }
    uint32_t id = newId();
    operands.insert(operands.begin(), id);
    SpirvInstruction inst(opcode, std::move(operands));
    noteDefinition(inst);
    newGlobals.push_back(std::move(inst));
    return id;
}

uint32_t SpirvModule::typeVoid() {
    return findOrAddType(Op::OpTypeVoid, {});
}
uint32_t SpirvModule::typeBool() {
    return findOrAddType(Op::OpTypeBool, {});
}
uint32_t SpirvModule::typeUint() {
    return findOrAddType(Op::OpTypeInt, {32, 0});
}
uint32_t SpirvModule::typeVector(uint32_t c, uint32_t n) {
    return findOrAddType(Op::OpTypeVector, {c, n});
}
uint32_t SpirvModule::typePointer(spv::StorageClass storage, uint32_t pointee) {
    return findOrAddType(Op::OpTypePointer, {uint32_t(storage), pointee});
}
uint32_t SpirvModule::typeFunction(uint32_t result, std::vector<uint32_t> params) {
    params.insert(params.begin(), result);
    return findOrAddType(Op::OpTypeFunction, params);
}

uint32_t SpirvModule::constUint(uint32_t value) {
    uint32_t u = typeUint();
    for (const auto* list : {&globals, &newGlobals})
        for (const SpirvInstruction& inst : *list)
            if (inst.opcode() == Op::OpConstant && inst.operandCount() == 1 &&
                inst.resultType() == u && inst.operand(0) == value)
                return inst.resultId();
    return emit(newGlobals, Op::OpConstant, u, {value});
}

uint32_t SpirvModule::constTrue() {
    uint32_t b = typeBool();
    for (const auto* list : {&globals, &newGlobals})
        for (const SpirvInstruction& inst : *list)
            if (inst.opcode() == Op::OpConstantTrue && inst.resultType() == b)
                return inst.resultId();
    return emit(newGlobals, Op::OpConstantTrue, b, {});
}

uint32_t SpirvModule::constFalse() {
    uint32_t b = typeBool();
    for (const auto* list : {&globals, &newGlobals})
        for (const SpirvInstruction& inst : *list)
            if (inst.opcode() == Op::OpConstantFalse && inst.resultType() == b)
                return inst.resultId();
    return emit(newGlobals, Op::OpConstantFalse, b, {});
}

uint32_t SpirvModule::undef(uint32_t type) {
    for (const SpirvInstruction& inst : newGlobals)
        if (inst.opcode() == Op::OpUndef && inst.resultType() == type) return inst.resultId();
    return emit(newGlobals, Op::OpUndef, type, {});
}

uint32_t SpirvModule::addGlobalVariable(uint32_t pointerType, spv::StorageClass storage,
                                        std::optional<uint32_t> init) {
    std::vector<uint32_t> operands{uint32_t(storage)};
    if (init) operands.push_back(*init);
    return emit(newGlobals, Op::OpVariable, pointerType, std::move(operands));
}

uint32_t SpirvModule::emit(std::vector<SpirvInstruction>& out, Op opcode, uint32_t type,
                           std::vector<uint32_t> operands) {
    uint32_t id = newId();
    operands.insert(operands.begin(), {type, id});
    SpirvInstruction inst(opcode, std::move(operands));
    noteDefinition(inst);
    out.push_back(std::move(inst));
    return id;
}

} // namespace vkp

namespace vkp {

uint32_t SpirvModule::builtinVariable(spv::BuiltIn builtin, uint32_t pointerType) {
    for (const SpirvInstruction& inst : globals)
        if (inst.opcode() == spv::Op::OpVariable &&
            decoration(inst.resultId(), spv::Decoration::BuiltIn) == uint32_t(builtin))
            return inst.resultId();
    uint32_t id = addGlobalVariable(pointerType, spv::StorageClass::Input);
    newAnnotations.emplace_back(
        spv::Op::OpDecorate,
        std::vector<uint32_t>{id, uint32_t(spv::Decoration::BuiltIn), uint32_t(builtin)});
    addToInterface(id);
    return id;
}

} // namespace vkp
