#include "shader/printf_rewrite.h"

#include <algorithm>

#include <spirv/unified1/spirv.hpp11>

#include "core/trace.h"
#include "shader/spirv_module.h"

namespace vkp {
namespace {

using Op = spv::Op;
constexpr uint32_t op(Op o) { return static_cast<uint32_t>(o); }
constexpr uint32_t kDebugPrintfInstruction = 1; // NonSemantic.DebugPrintf's only instruction

std::string importName(const SpvInst& s) { return s.op == op(Op::OpExtInstImport) && !s.w.empty() ? spirvString(s.w, 1) : ""; }

// Records a line of `words` argument words takes: the first carries two, the others three each.
uint32_t recordsFor(uint32_t words) { return 1 + (words > 2 ? (words - 2 + 2) / 3 : 0); }

} // namespace

uint32_t debugPrintfSet(const SpirvEditor& m) {
    for (const SpvInst& s : m.preamble)
        if (importName(s) == "NonSemantic.DebugPrintf") return s.w[0];
    return 0;
}

bool isDebugPrintf(const SpvInst& s, uint32_t set) {
    return set && s.op == op(Op::OpExtInst) && s.w.size() >= 5 && s.w[2] == set && s.w[3] == kDebugPrintfInstruction;
}

void dropDebugPrintfImport(SpirvEditor& m, uint32_t set) {
    auto& p = m.preamble;
    p.erase(std::remove_if(p.begin(), p.end(), [&](const SpvInst& s) { return s.op == op(Op::OpExtInstImport) && s.w[0] == set; }), p.end());
    bool otherNonSemantic = std::any_of(p.begin(), p.end(), [](const SpvInst& s) { return importName(s).rfind("NonSemantic.", 0) == 0; });
    if (otherNonSemantic) return;
    p.erase(std::remove_if(p.begin(), p.end(), [](const SpvInst& s) {
                return s.op == op(Op::OpExtension) && spirvString(s.w, 0) == "SPV_KHR_non_semantic_info";
            }),
            p.end());
}

Result<std::vector<uint32_t>> stripDebugPrintf(std::span<const uint32_t> spirv) {
    auto m = SpirvEditor::parse(spirv);
    if (!m) return m.error();
    uint32_t set = debugPrintfSet(*m);
    if (!set) return std::vector<uint32_t>(spirv.begin(), spirv.end());
    auto& f = m->functions;
    f.erase(std::remove_if(f.begin(), f.end(), [&](const SpvInst& s) { return isDebugPrintf(s, set); }), f.end());
    dropDebugPrintfImport(*m, set);
    return m->assemble();
}

uint32_t PrintfRecorder::emit(std::vector<SpvInst>& out, uint32_t o, uint32_t type, std::vector<uint32_t> operands) {
    uint32_t id = m_m.newId();
    operands.insert(operands.begin(), {type, id});
    SpvInst s{o, std::move(operands)};
    m_m.noteDefinition(s);
    out.push_back(std::move(s));
    return id;
}

uint32_t PrintfRecorder::formatIndex(uint32_t stringId) {
    if (auto it = m_formatIndex.find(stringId); it != m_formatIndex.end()) return it->second;
    std::string text;
    for (const SpvInst& s : m_m.preamble)
        if (s.op == op(Op::OpString) && !s.w.empty() && s.w[0] == stringId) text = spirvString(s.w, 1);
    m_formats.push_back(text);
    return m_formatIndex[stringId] = static_cast<uint32_t>(m_formats.size() - 1);
}

// A 32-bit value as its bits; 64-bit as two words (low, high); a bool as 0 or 1; anything else
// (16-bit, a struct) as one 0 word, which the formatter prints like any other.
void PrintfRecorder::scalarWords(std::vector<SpvInst>& out, uint32_t value, uint32_t type, std::vector<uint32_t>& words) {
    const SpvInst* t = m_m.def(type);
    bool number = t && (t->op == op(Op::OpTypeInt) || t->op == op(Op::OpTypeFloat));
    if (t && t->op == op(Op::OpTypeBool)) {
        words.push_back(emit(out, op(Op::OpSelect), m_t.uintType, {value, m_m.constUint(1), m_m.constUint(0)}));
    } else if (number && t->w[1] == 32) {
        words.push_back(type == m_t.uintType ? value : emit(out, op(Op::OpBitcast), m_t.uintType, {value}));
    } else if (number && t->w[1] == 64) {
        uint32_t pair = emit(out, op(Op::OpBitcast), m_m.typeVector(m_t.uintType, 2), {value});
        for (uint32_t k = 0; k < 2; ++k) words.push_back(emit(out, op(Op::OpCompositeExtract), m_t.uintType, {pair, k}));
    } else {
        words.push_back(m_m.constUint(0));
    }
}

void PrintfRecorder::argWords(std::vector<SpvInst>& out, uint32_t value, std::vector<uint32_t>& words) {
    uint32_t type = m_m.typeOf(value);
    const SpvInst* t = m_m.def(type);
    if (!t || t->op != op(Op::OpTypeVector)) return scalarWords(out, value, type, words);
    for (uint32_t c = 0; c < t->w[2]; ++c)
        scalarWords(out, emit(out, op(Op::OpCompositeExtract), t->w[1], {value, c}), t->w[1], words);
}

void PrintfRecorder::rewrite(const SpvInst& call, uint32_t line, std::vector<SpvInst>& out) {
    std::vector<uint32_t> words;
    for (size_t k = 5; k < call.w.size(); ++k) argWords(out, call.w[k], words);
    if (words.size() > kPrintfMaxArgWords) words.resize(kPrintfMaxArgWords);
    uint32_t n = static_cast<uint32_t>(words.size());
    std::vector<uint32_t> operands{writerFor(n), m_m.constUint(packTraceWord0(TraceEventKind::Printf, n, line)), m_m.constUint(formatIndex(call.w[4]))};
    operands.insert(operands.end(), words.begin(), words.end());
    emit(out, op(Op::OpFunctionCall), m_t.voidType, std::move(operands));
    ++m_calls;
}

uint32_t PrintfRecorder::writerFor(uint32_t words) {
    if (auto it = m_writers.find(words); it != m_writers.end()) return it->second;
    uint32_t fn = m_m.newId();
    m_writers[words] = fn;
    buildWriter(fn, words);
    return fn;
}

// writeN(w0, format, arg words...): the line's records while the thread has lines left, room in
// half its slots for printing and room in its slots; otherwise the status word counts it.
void PrintfRecorder::buildWriter(uint32_t fn, uint32_t words) {
    auto& f = m_m.newFunctions;
    uint32_t u = m_t.uintType, b = m_t.boolType;
    f.push_back({op(Op::OpFunction), {m_t.voidType, fn, 0, m_m.typeFunction(m_t.voidType, std::vector<uint32_t>(2 + words, u))}});
    std::vector<uint32_t> p(2 + words);
    for (uint32_t& id : p) {
        id = m_m.newId();
        f.push_back({op(Op::OpFunctionParameter), {u, id}});
    }
    f.push_back({op(Op::OpLabel), {m_m.newId()}});
    uint32_t need = m_m.constUint(recordsFor(words));
    uint32_t lines = emit(f, op(Op::OpLoad), u, {m_t.linesVar}), used = emit(f, op(Op::OpLoad), u, {m_t.usedVar});
    uint32_t pos = emit(f, op(Op::OpLoad), u, {m_t.posVar}), slots = emit(f, op(Op::OpLoad), u, {m_t.slotsVar});
    uint32_t usedAfter = emit(f, op(Op::OpIAdd), u, {used, need});
    uint32_t ok = emit(f, op(Op::OpULessThan), b, {lines, m_m.constUint(kPrintfLinesPerThread)});
    ok = emit(f, op(Op::OpLogicalAnd), b, {ok, emit(f, op(Op::OpULessThanEqual), b, {usedAfter, emit(f, op(Op::OpUDiv), u, {slots, m_m.constUint(2)})})});
    ok = emit(f, op(Op::OpLogicalAnd), b, {ok, emit(f, op(Op::OpULessThanEqual), b, {emit(f, op(Op::OpIAdd), u, {pos, need}), slots})});
    uint32_t writeL = m_m.newId(), dropL = m_m.newId(), mergeL = m_m.newId();
    f.push_back({op(Op::OpSelectionMerge), {mergeL, 0}});
    f.push_back({op(Op::OpBranchConditional), {ok, writeL, dropL}});
    f.push_back({op(Op::OpLabel), {writeL}});
    auto arg = [&](uint32_t k) { return k < words ? p[2 + k] : m_m.constUint(0); };
    emit(f, op(Op::OpFunctionCall), m_t.voidType, {m_t.recordFn, p[0], p[1], arg(0), arg(1)});
    uint32_t more = m_m.constUint(packTraceWord0(TraceEventKind::PrintfArgs, 0, 0));
    for (uint32_t k = 2; k < words; k += 3) emit(f, op(Op::OpFunctionCall), m_t.voidType, {m_t.recordFn, more, arg(k), arg(k + 1), arg(k + 2)});
    f.push_back({op(Op::OpStore), {m_t.linesVar, emit(f, op(Op::OpIAdd), u, {lines, m_m.constUint(1)})}});
    f.push_back({op(Op::OpStore), {m_t.usedVar, usedAfter}});
    f.push_back({op(Op::OpBranch), {mergeL}});
    f.push_back({op(Op::OpLabel), {dropL}});
    countDropped(f);
    f.push_back({op(Op::OpBranch), {mergeL}});
    f.push_back({op(Op::OpLabel), {mergeL}});
    f.push_back({op(Op::OpReturn), {}});
    f.push_back({op(Op::OpFunctionEnd), {}});
}

// status += 1 << kTracePrintfDroppedShift, saturating at kTracePrintfDroppedMax.
void PrintfRecorder::countDropped(std::vector<SpvInst>& f) {
    uint32_t u = m_t.uintType;
    uint32_t at = emit(f, op(Op::OpLoad), u, {m_t.statusVar});
    uint32_t ptr = emit(f, op(Op::OpAccessChain), m_t.dataPtrType, {m_t.traceVar, m_m.constUint(0), at});
    uint32_t cur = emit(f, op(Op::OpLoad), u, {ptr});
    uint32_t field = emit(f, op(Op::OpBitwiseAnd), u, {emit(f, op(Op::OpShiftRightLogical), u, {cur, m_m.constUint(kTracePrintfDroppedShift)}),
                                                        m_m.constUint(kTracePrintfDroppedMax)});
    uint32_t room = emit(f, op(Op::OpULessThan), m_t.boolType, {field, m_m.constUint(kTracePrintfDroppedMax)});
    uint32_t bumped = emit(f, op(Op::OpIAdd), u, {cur, m_m.constUint(1u << kTracePrintfDroppedShift)});
    f.push_back({op(Op::OpStore), {ptr, emit(f, op(Op::OpSelect), u, {room, bumped, cur})}});
}

} // namespace vkp
