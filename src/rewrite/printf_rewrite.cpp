#include "rewrite/printf_rewrite.h"

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
void PrintfRecorder::scalarWords(SpirvBuilder& b, uint32_t value, uint32_t type,
                                 std::vector<uint32_t>& words) {
    uint32_t u = m_target.uintType;
    const SpirvInstruction* t = m_module.definition(type);
    bool number = t && (t->opcode() == Op::OpTypeInt || t->opcode() == Op::OpTypeFloat);
    if (t && t->opcode() == Op::OpTypeBool) {
        uint32_t one = b.uint(1), zero = b.uint(0);
        words.push_back(b.select(u, value, one, zero));
    } else if (number && t->operand(0) == 32) {
        words.push_back(type == u ? value : b.bitcast(u, value));
    } else if (number && t->operand(0) == 64) {
        uint32_t pair = b.bitcast(m_module.typeVector(u, 2), value);
        for (uint32_t k = 0; k < 2; ++k)
            words.push_back(b.extract(u, pair, k));
    } else {
        words.push_back(b.uint(0));
    }
}

void PrintfRecorder::argWords(SpirvBuilder& b, uint32_t value, std::vector<uint32_t>& words) {
    uint32_t type = m_module.typeOf(value);
    const SpirvInstruction* t = m_module.definition(type);
    if (!t || t->opcode() != Op::OpTypeVector) return scalarWords(b, value, type, words);
    uint32_t component = t->operand(0), count = t->operand(1);
    for (uint32_t c = 0; c < count; ++c)
        scalarWords(b, b.extract(component, value, c), component, words);
}

void PrintfRecorder::rewrite(const SpirvInstruction& call, uint32_t line,
                             std::vector<SpirvInstruction>& out) {
    SpirvBuilder b(m_module, out);
    std::vector<uint32_t> words;
    for (uint32_t arg : call.operands(3))
        argWords(b, arg, words); // after the set, instruction and format
    if (words.size() > kPrintfMaxArgWords) words.resize(kPrintfMaxArgWords);
    uint32_t n = static_cast<uint32_t>(words.size());
    uint32_t writer = writerFor(n);
    std::vector<uint32_t> arguments{b.uint(packTraceWord0(TraceEventKind::Printf, n, line)),
                                    b.uint(formatIndex(call.operand(2)))};
    arguments.insert(arguments.end(), words.begin(), words.end());
    b.call(m_target.voidType, writer, std::move(arguments));
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
    uint32_t u = m_target.uintType;
    SpirvBuilder b(m_module, m_module.newFunctions);
    std::vector<uint32_t> parameterTypes(2 + words, u);
    std::vector<uint32_t> p =
        b.beginFunction(m_target.voidType, fn,
                        m_module.typeFunction(m_target.voidType, parameterTypes), parameterTypes);
    uint32_t need = b.uint(recordsFor(words));
    uint32_t lines = b.load(u, m_target.linesVar), used = b.load(u, m_target.usedVar);
    uint32_t pos = b.load(u, m_target.posVar), slots = b.load(u, m_target.slotsVar);
    uint32_t usedAfter = b.add(used, need);
    uint32_t ok = b.less(lines, b.uint(kPrintfLinesPerThread));
    ok = b.logicalAnd(ok, b.lessEqual(usedAfter, b.div(slots, b.uint(2))));
    ok = b.logicalAnd(ok, b.lessEqual(b.add(pos, need), slots));
    auto write = [&] {
        auto arg = [&](uint32_t k) { return k < words ? p[2 + k] : b.uint(0); };
        b.call(m_target.voidType, m_target.recordFn, {p[0], p[1], arg(0), arg(1)});
        uint32_t more = b.uint(packTraceWord0(TraceEventKind::PrintfArgs, 0, 0));
        for (uint32_t k = 2; k < words; k += 3)
            b.call(m_target.voidType, m_target.recordFn, {more, arg(k), arg(k + 1), arg(k + 2)});
        b.store(m_target.linesVar, b.add(lines, b.uint(1)));
        b.store(m_target.usedVar, usedAfter);
    };
    b.ifElse(ok, write, [&] { countDropped(b); });
    b.returnVoid();
    b.endFunction();
}

// status += 1 << kTracePrintfDroppedShift, saturating at kTracePrintfDroppedMax.
void PrintfRecorder::countDropped(SpirvBuilder& b) {
    uint32_t u = m_target.uintType;
    uint32_t at = b.load(u, m_target.statusVar);
    uint32_t zero = b.uint(0);
    uint32_t ptr = b.accessChain(m_target.dataPtrType, m_target.traceVar, {zero, at});
    uint32_t cur = b.load(u, ptr);
    uint32_t shifted = b.shiftRight(cur, b.uint(kTracePrintfDroppedShift));
    uint32_t field = b.bitAnd(shifted, b.uint(kTracePrintfDroppedMax));
    uint32_t room = b.less(field, b.uint(kTracePrintfDroppedMax));
    uint32_t bumped = b.add(cur, b.uint(1u << kTracePrintfDroppedShift));
    b.store(ptr, b.select(u, room, bumped, cur));
}

} // namespace vkp
