#include "shader/printf_rewrite.h"

#include <algorithm>

#include "trace/trace.h"

namespace vkp {
namespace {

using Op = spv::Op;
constexpr uint32_t kDebugPrintfInstruction = 1; // NonSemantic.DebugPrintf's only instruction

std::string importName(const SpirvInstruction& inst) {
    return inst.opcode() == Op::OpExtInstImport ? inst.literalString(0) : "";
}

// Records a line of `words` argument words takes: the first carries two, the others three each.
uint32_t recordsFor(uint32_t words) {
    return 1 + (words > 2 ? (words - 2 + 2) / 3 : 0);
}

} // namespace

uint32_t debugPrintfSet(const SpirvModule& module) {
    for (const SpirvInstruction& inst : module.preamble)
        if (importName(inst) == "NonSemantic.DebugPrintf") return inst.resultId();
    return 0;
}

bool isDebugPrintf(const SpirvInstruction& inst, uint32_t set) {
    // OpExtInst operands: the set, its instruction, then (debugPrintf) the format and arguments.
    return set && inst.opcode() == Op::OpExtInst && inst.operandCount() >= 3 &&
           inst.operand(0) == set && inst.operand(1) == kDebugPrintfInstruction;
}

void dropDebugPrintfImport(SpirvModule& module, uint32_t set) {
    auto& p = module.preamble;
    std::erase_if(p, [&](const SpirvInstruction& inst) {
        return inst.opcode() == Op::OpExtInstImport && inst.resultId() == set;
    });
    bool otherNonSemantic = std::any_of(p.begin(), p.end(), [](const SpirvInstruction& inst) {
        return importName(inst).rfind("NonSemantic.", 0) == 0;
    });
    if (otherNonSemantic) return;
    std::erase_if(p, [](const SpirvInstruction& inst) {
        return inst.opcode() == Op::OpExtension &&
               inst.literalString(0) == "SPV_KHR_non_semantic_info";
    });
}

Result<std::vector<uint32_t>> stripDebugPrintf(std::span<const uint32_t> spirv) {
    auto module = SpirvModule::parse(spirv);
    if (!module) return module.error();
    uint32_t set = debugPrintfSet(*module);
    if (!set) return std::vector<uint32_t>(spirv.begin(), spirv.end());
    std::erase_if(module->functions,
                  [&](const SpirvInstruction& inst) { return isDebugPrintf(inst, set); });
    dropDebugPrintfImport(*module, set);
    return module->assemble();
}

uint32_t PrintfRecorder::formatIndex(uint32_t stringId) {
    if (auto it = m_formatIndex.find(stringId); it != m_formatIndex.end()) return it->second;
    m_formats.push_back(m_module.stringLiteral(stringId));
    return m_formatIndex[stringId] = static_cast<uint32_t>(m_formats.size() - 1);
}

// A 32-bit value as its bits; 64-bit as two words (low, high); a bool as 0 or 1; anything else
// (16-bit, a struct) as one 0 word, which the formatter prints like any other.
void PrintfRecorder::scalarWords(std::vector<SpirvInstruction>& out, uint32_t value, uint32_t type,
                                 std::vector<uint32_t>& words) {
    const SpirvInstruction* t = m_module.definition(type);
    bool number = t && (t->opcode() == Op::OpTypeInt || t->opcode() == Op::OpTypeFloat);
    if (t && t->opcode() == Op::OpTypeBool) {
        words.push_back(m_module.emit(out, Op::OpSelect, m_target.uintType,
                                      {value, m_module.constUint(1), m_module.constUint(0)}));
    } else if (number && t->operand(0) == 32) {
        words.push_back(type == m_target.uintType
                            ? value
                            : m_module.emit(out, Op::OpBitcast, m_target.uintType, {value}));
    } else if (number && t->operand(0) == 64) {
        uint32_t pair =
            m_module.emit(out, Op::OpBitcast, m_module.typeVector(m_target.uintType, 2), {value});
        for (uint32_t k = 0; k < 2; ++k)
            words.push_back(
                m_module.emit(out, Op::OpCompositeExtract, m_target.uintType, {pair, k}));
    } else {
        words.push_back(m_module.constUint(0));
    }
}

void PrintfRecorder::argWords(std::vector<SpirvInstruction>& out, uint32_t value,
                              std::vector<uint32_t>& words) {
    uint32_t type = m_module.typeOf(value);
    const SpirvInstruction* t = m_module.definition(type);
    if (!t || t->opcode() != Op::OpTypeVector) return scalarWords(out, value, type, words);
    uint32_t component = t->operand(0), count = t->operand(1);
    for (uint32_t c = 0; c < count; ++c)
        scalarWords(out, m_module.emit(out, Op::OpCompositeExtract, component, {value, c}),
                    component, words);
}

void PrintfRecorder::rewrite(const SpirvInstruction& call, uint32_t line,
                             std::vector<SpirvInstruction>& out) {
    std::vector<uint32_t> words;
    for (uint32_t arg : call.operands(3))
        argWords(out, arg, words); // after the set, instruction and format
    if (words.size() > kPrintfMaxArgWords) words.resize(kPrintfMaxArgWords);
    uint32_t n = static_cast<uint32_t>(words.size());
    std::vector<uint32_t> operands{
        writerFor(n), m_module.constUint(packTraceWord0(TraceEventKind::Printf, n, line)),
        m_module.constUint(formatIndex(call.operand(2)))};
    operands.insert(operands.end(), words.begin(), words.end());
    m_module.emit(out, Op::OpFunctionCall, m_target.voidType, std::move(operands));
    ++m_calls;
}

uint32_t PrintfRecorder::writerFor(uint32_t words) {
    if (auto it = m_writers.find(words); it != m_writers.end()) return it->second;
    uint32_t fn = m_module.newId();
    m_writers[words] = fn;
    buildWriter(fn, words);
    return fn;
}

// writeN(w0, format, arg words...): the line's records while the thread has lines left, room in
// half its slots for printing and room in its slots; otherwise the status word counts it.
void PrintfRecorder::buildWriter(uint32_t fn, uint32_t words) {
    auto& f = m_module.newFunctions;
    uint32_t u = m_target.uintType, b = m_target.boolType;
    f.push_back({Op::OpFunction,
                 {m_target.voidType, fn, 0,
                  m_module.typeFunction(m_target.voidType, std::vector<uint32_t>(2 + words, u))}});
    std::vector<uint32_t> p(2 + words);
    for (uint32_t& id : p) {
        id = m_module.newId();
        f.push_back({Op::OpFunctionParameter, {u, id}});
    }
    f.push_back({Op::OpLabel, {m_module.newId()}});
    uint32_t need = m_module.constUint(recordsFor(words));
    uint32_t lines = m_module.emit(f, Op::OpLoad, u, {m_target.linesVar}),
             used = m_module.emit(f, Op::OpLoad, u, {m_target.usedVar});
    uint32_t pos = m_module.emit(f, Op::OpLoad, u, {m_target.posVar}),
             slots = m_module.emit(f, Op::OpLoad, u, {m_target.slotsVar});
    uint32_t usedAfter = m_module.emit(f, Op::OpIAdd, u, {used, need});
    uint32_t ok =
        m_module.emit(f, Op::OpULessThan, b, {lines, m_module.constUint(kPrintfLinesPerThread)});
    ok = m_module.emit(
        f, Op::OpLogicalAnd, b,
        {ok, m_module.emit(
                 f, Op::OpULessThanEqual, b,
                 {usedAfter, m_module.emit(f, Op::OpUDiv, u, {slots, m_module.constUint(2)})})});
    ok = m_module.emit(f, Op::OpLogicalAnd, b,
                       {ok, m_module.emit(f, Op::OpULessThanEqual, b,
                                          {m_module.emit(f, Op::OpIAdd, u, {pos, need}), slots})});
    uint32_t writeL = m_module.newId(), dropL = m_module.newId(), mergeL = m_module.newId();
    f.push_back({Op::OpSelectionMerge, {mergeL, 0}});
    f.push_back({Op::OpBranchConditional, {ok, writeL, dropL}});
    f.push_back({Op::OpLabel, {writeL}});
    auto arg = [&](uint32_t k) { return k < words ? p[2 + k] : m_module.constUint(0); };
    m_module.emit(f, Op::OpFunctionCall, m_target.voidType,
                  {m_target.recordFn, p[0], p[1], arg(0), arg(1)});
    uint32_t more = m_module.constUint(packTraceWord0(TraceEventKind::PrintfArgs, 0, 0));
    for (uint32_t k = 2; k < words; k += 3)
        m_module.emit(f, Op::OpFunctionCall, m_target.voidType,
                      {m_target.recordFn, more, arg(k), arg(k + 1), arg(k + 2)});
    f.push_back(
        {Op::OpStore,
         {m_target.linesVar, m_module.emit(f, Op::OpIAdd, u, {lines, m_module.constUint(1)})}});
    f.push_back({Op::OpStore, {m_target.usedVar, usedAfter}});
    f.push_back({Op::OpBranch, {mergeL}});
    f.push_back({Op::OpLabel, {dropL}});
    countDropped(f);
    f.push_back({Op::OpBranch, {mergeL}});
    f.push_back({Op::OpLabel, {mergeL}});
    f.push_back({Op::OpReturn, {}});
    f.push_back({Op::OpFunctionEnd, {}});
}

// status += 1 << kTracePrintfDroppedShift, saturating at kTracePrintfDroppedMax.
void PrintfRecorder::countDropped(std::vector<SpirvInstruction>& f) {
    uint32_t u = m_target.uintType;
    uint32_t at = m_module.emit(f, Op::OpLoad, u, {m_target.statusVar});
    uint32_t ptr = m_module.emit(f, Op::OpAccessChain, m_target.dataPtrType,
                                 {m_target.traceVar, m_module.constUint(0), at});
    uint32_t cur = m_module.emit(f, Op::OpLoad, u, {ptr});
    uint32_t field =
        m_module.emit(f, Op::OpBitwiseAnd, u,
                      {m_module.emit(f, Op::OpShiftRightLogical, u,
                                     {cur, m_module.constUint(kTracePrintfDroppedShift)}),
                       m_module.constUint(kTracePrintfDroppedMax)});
    uint32_t room = m_module.emit(f, Op::OpULessThan, m_target.boolType,
                                  {field, m_module.constUint(kTracePrintfDroppedMax)});
    uint32_t bumped =
        m_module.emit(f, Op::OpIAdd, u, {cur, m_module.constUint(1u << kTracePrintfDroppedShift)});
    f.push_back({Op::OpStore, {ptr, m_module.emit(f, Op::OpSelect, u, {room, bumped, cur})}});
}

} // namespace vkp
