#include "shader/instrument.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <set>

#include <spirv-tools/libspirv.hpp>
#include <spirv/unified1/spirv.hpp11>

#include "shader/printf_rewrite.h"
#include "shader/reflect.h"
#include "shader/spirv_editor.h"

namespace vkp {
namespace {

using Op = spv::Op;
constexpr uint32_t op(Op o) { return static_cast<uint32_t>(o); }
constexpr uint32_t sc(spv::StorageClass s) { return static_cast<uint32_t>(s); }
constexpr uint32_t deco(spv::Decoration d) { return static_cast<uint32_t>(d); }

bool isAtomic(uint32_t o) {
    return (o >= op(Op::OpAtomicLoad) && o <= op(Op::OpAtomicXor)) || o == op(Op::OpAtomicFAddEXT) ||
           o == op(Op::OpAtomicFMinEXT) || o == op(Op::OpAtomicFMaxEXT);
}

// A pointer into a traced variable: the variable and the access-chain indices from it.
struct Chain {
    uint32_t variable = 0; // index in the layout
    std::vector<uint32_t> indices;
};

class Instrumenter {
  public:
    // guardBudget 0: the full trace; otherwise guardLoops' counter with this budget, nothing else.
    Instrumenter(SpirvEditor& m, const KernelInterface& reflected, const InstrumentOptions& o, uint32_t guardBudget = 0)
        : m_m(m), m_reflected(reflected), m_o(o), m_guardBudget(guardBudget) {}

    Result<InstrumentResult> run() {
        if (auto s = findEntryPoint(); !s) return s.error();
        m_layout.traceSet = m_o.traceSet;
        m_layout.traceBinding = m_o.traceBinding;
        m_printfSet = debugPrintfSet(m_m);
        if (logsAccesses()) findVariables();
        declareTraceObjects();
        if (logsAccesses()) {
            buildInit();
            buildRecorder();
            buildLoopGuard();
        } else {
            buildGuardOnly();
        }
        std::vector<SpvInst> out;
        size_t start = 0;
        for (size_t i = 0; i < m_m.functions.size(); ++i) {
            if (m_m.functions[i].op != op(Op::OpFunctionEnd)) continue;
            rewriteFunction(std::span(m_m.functions).subspan(start, i + 1 - start), out);
            start = i + 1;
        }
        m_m.functions = std::move(out);
        if (m_printfSet) dropDebugPrintfImport(m_m, m_printfSet);
        if (m_printf) m_layout.printfFormats = m_printf->formats();
        InstrumentResult r;
        r.spirv = m_m.assemble();
        r.layout = m_layout;
        r.accessSites = m_sites;
        r.loopsGuarded = m_loops;
        r.printfCalls = m_printf ? m_printf->calls() : 0;
        return r;
    }

  private:
    // --- module level ---------------------------------------------------------------------
    Status findEntryPoint() {
        for (SpvInst& s : m_m.preamble)
            if (s.op == op(Op::OpEntryPoint)) {
                m_entry = &s;
                return okStatus();
            }
        return Error{ErrorKind::Internal, "the kernel has no entry point"};
    }

    bool logsAccesses() const { return m_guardBudget == 0; }

    void findVariables() {
        for (const SpvInst& s : m_m.globals) {
            if (s.op != op(Op::OpVariable) || s.w.size() < 3) continue;
            uint32_t storage = s.w[2];
            const SpvInst* ptr = m_m.def(s.w[0]);
            if (!ptr) continue;
            uint32_t pointee = ptr->w[2];
            bool buffer = storage == sc(spv::StorageClass::StorageBuffer) ||
                          (storage == sc(spv::StorageClass::Uniform) && m_m.hasDecoration(pointee, deco(spv::Decoration::BufferBlock)));
            bool shared = storage == sc(spv::StorageClass::Workgroup);
            if ((!buffer && !shared) || m_layout.variables.size() >= kTraceVariableNone) continue;
            TracedVariable v;
            v.shared = shared;
            if (buffer) describeBuffer(s.w[1], pointee, v);
            else describeShared(s.w[1], v);
            m_varIndex[s.w[1]] = static_cast<uint32_t>(m_layout.variables.size());
            m_pointee[s.w[1]] = pointee;
            m_layout.variables.push_back(v);
        }
    }
    void describeBuffer(uint32_t var, uint32_t block, TracedVariable& v) {
        auto set = m_m.decorations(var, deco(spv::Decoration::DescriptorSet));
        auto binding = m_m.decorations(var, deco(spv::Decoration::Binding));
        v.set = set.empty() ? 0 : set[0];
        v.binding = binding.empty() ? 0 : binding[0];
        v.name = m_m.memberName(block, 0);
        if (v.name.empty()) v.name = m_m.name(var);
        const SpvInst* st = m_m.def(block);
        if (st && st->op == op(Op::OpTypeStruct) && st->w.size() >= 2)
            if (const SpvInst* arr = m_m.def(st->w[1]); arr && arr->op == op(Op::OpTypeRuntimeArray))
                v.elementType = scalarKind(arr->w[1]);
    }
    void describeShared(uint32_t var, TracedVariable& v) {
        for (const KernelSharedArray& a : m_reflected.shared) {
            if (a.variableId != var) continue;
            v.name = a.name;
            v.dims = a.dims;
            v.elementType = a.elementType;
            v.elementWidth = a.elementWidth;
        }
    }
    std::optional<ElementKind> scalarKind(uint32_t type) const {
        const SpvInst* t = m_m.def(type);
        if (t && t->op == op(Op::OpTypeFloat) && t->w[1] == 32) return ElementKind::Float;
        if (t && t->op == op(Op::OpTypeInt) && t->w[1] == 32) return t->w[2] ? ElementKind::Int : ElementKind::Uint;
        return std::nullopt;
    }
    uint32_t builtinVariable(spv::BuiltIn builtin, uint32_t pointerType) {
        for (const SpvInst& s : m_m.globals)
            if (s.op == op(Op::OpVariable)) {
                auto b = m_m.decorations(s.w[1], deco(spv::Decoration::BuiltIn));
                if (!b.empty() && b[0] == uint32_t(builtin)) return s.w[1];
            }
        uint32_t id = addGlobalVariable(pointerType, sc(spv::StorageClass::Input));
        m_m.newAnnotations.push_back({op(Op::OpDecorate), {id, deco(spv::Decoration::BuiltIn), uint32_t(builtin)}});
        return id;
    }
    uint32_t addGlobalVariable(uint32_t pointerType, uint32_t storage, std::optional<uint32_t> init = {}) {
        uint32_t id = m_m.newId();
        SpvInst v{op(Op::OpVariable), {pointerType, id, storage}};
        if (init) v.w.push_back(*init);
        m_m.noteDefinition(v);
        m_m.newGlobals.push_back(v);
        return id;
    }
    void addToInterface(uint32_t var) {
        // Entry point operands: model, function, name (nul-terminated words), interface ids.
        size_t nameEnd = 2;
        while (nameEnd < m_entry->w.size() && (m_entry->w[nameEnd] >> 24) != 0) ++nameEnd;
        ++nameEnd;
        if (std::find(m_entry->w.begin() + std::min(nameEnd, m_entry->w.size()), m_entry->w.end(), var) == m_entry->w.end())
            m_entry->w.push_back(var);
    }

    void declareTraceObjects() {
        m_uint = m_m.typeUint();
        m_bool = m_m.typeBool();
        m_void = m_m.typeVoid();
        uint32_t v3 = m_m.typeVector(m_uint, 3);
        // The trace block: struct { uint data[]; } in its own descriptor set.
        uint32_t runtime = m_m.newId(), block = m_m.newId();
        m_m.newGlobals.push_back({op(Op::OpTypeRuntimeArray), {runtime, m_uint}});
        m_m.newGlobals.push_back({op(Op::OpTypeStruct), {block, runtime}});
        m_m.newAnnotations.push_back({op(Op::OpDecorate), {runtime, deco(spv::Decoration::ArrayStride), 4}});
        m_m.newAnnotations.push_back({op(Op::OpMemberDecorate), {block, 0, deco(spv::Decoration::Offset), 0}});
        m_m.newAnnotations.push_back({op(Op::OpDecorate), {block, deco(spv::Decoration::Block)}});
        m_traceVar = addGlobalVariable(m_m.typePointer(sc(spv::StorageClass::StorageBuffer), block), sc(spv::StorageClass::StorageBuffer));
        m_m.newAnnotations.push_back({op(Op::OpDecorate), {m_traceVar, deco(spv::Decoration::DescriptorSet), m_o.traceSet}});
        m_m.newAnnotations.push_back({op(Op::OpDecorate), {m_traceVar, deco(spv::Decoration::Binding), m_o.traceBinding}});
        m_ptrData = m_m.typePointer(sc(spv::StorageClass::StorageBuffer), m_uint);
        uint32_t ptrPrivate = m_m.typePointer(sc(spv::StorageClass::Private), m_uint);
        m_iters = addGlobalVariable(ptrPrivate, sc(spv::StorageClass::Private), m_m.constUint(0));
        m_groupId = builtinVariable(spv::BuiltIn::WorkgroupId, m_m.typePointer(sc(spv::StorageClass::Input), v3));
        m_localIndex = builtinVariable(spv::BuiltIn::LocalInvocationIndex, m_m.typePointer(sc(spv::StorageClass::Input), m_uint));
        for (uint32_t var : {m_traceVar, m_iters, m_groupId, m_localIndex}) addToInterface(var);
        m_loopType = m_m.typeFunction(m_bool, {m_uint});
        m_loopFn = m_m.newId();
        if (!logsAccesses()) return;
        m_pos = addGlobalVariable(ptrPrivate, sc(spv::StorageClass::Private), m_m.constUint(0));
        addToInterface(m_pos);
        m_recType = m_m.typeFunction(m_void, {m_uint, m_uint, m_uint, m_uint});
        m_initType = m_m.typeFunction(m_void, {});
        for (uint32_t* var : {&m_slotsVar, &m_baseVar, &m_countVar, &m_statusVar}) {
            *var = addGlobalVariable(ptrPrivate, sc(spv::StorageClass::Private), m_m.constUint(0));
            addToInterface(*var);
        }
        m_recFn = m_m.newId();
        m_initFn = m_m.newId();
        if (m_printfSet) declarePrintf(ptrPrivate);
    }

    // debugPrintfEXT calls become records (shader/printf_rewrite.h), counted per invocation.
    void declarePrintf(uint32_t ptrPrivate) {
        PrintfTarget t{m_uint, m_bool, m_void, m_recFn, m_traceVar, m_ptrData, m_pos, m_slotsVar, m_statusVar};
        for (uint32_t* var : {&t.linesVar, &t.usedVar}) {
            *var = addGlobalVariable(ptrPrivate, sc(spv::StorageClass::Private), m_m.constUint(0));
            addToInterface(*var);
        }
        m_printf = std::make_unique<PrintfRecorder>(m_m, t);
    }

    // --- helpers for emitting instructions ------------------------------------------------
    uint32_t emit(std::vector<SpvInst>& out, Op o, uint32_t type, std::vector<uint32_t> operands) {
        uint32_t id = m_m.newId();
        operands.insert(operands.begin(), {type, id});
        SpvInst s{op(o), std::move(operands)};
        m_m.noteDefinition(s);
        out.push_back(std::move(s));
        return id;
    }
    void emitVoid(std::vector<SpvInst>& out, Op o, std::vector<uint32_t> operands) { out.push_back({op(o), std::move(operands)}); }
    uint32_t dataPtr(std::vector<SpvInst>& out, uint32_t index) {
        return emit(out, Op::OpAccessChain, m_ptrData, {m_traceVar, m_m.constUint(0), index});
    }
    uint32_t loadData(std::vector<SpvInst>& out, uint32_t word) {
        return emit(out, Op::OpLoad, m_uint, {dataPtr(out, m_m.constUint(word))});
    }
    uint32_t label(std::vector<SpvInst>& out) {
        uint32_t id = m_m.newId();
        out.push_back({op(Op::OpLabel), {id}});
        return id;
    }

    // init(), called first thing in the entry point: this invocation's flat index (workgroup-major,
    // see core/trace.h) turned into where its records, count and status live, kept in Private
    // variables so each record costs only a few stores.
    void buildInit() {
        auto& f = m_m.newFunctions;
        f.push_back({op(Op::OpFunction), {m_void, m_initFn, 0, m_initType}});
        label(f);
        uint32_t perGroup = loadData(f, 2), nx = loadData(f, 3), ny = loadData(f, 4);
        uint32_t wid = emit(f, Op::OpLoad, m_m.typeVector(m_uint, 3), {m_groupId});
        uint32_t wx = emit(f, Op::OpCompositeExtract, m_uint, {wid, 0});
        uint32_t wy = emit(f, Op::OpCompositeExtract, m_uint, {wid, 1});
        uint32_t wz = emit(f, Op::OpCompositeExtract, m_uint, {wid, 2});
        uint32_t plane = emit(f, Op::OpIMul, m_uint, {nx, ny});
        uint32_t g = emit(f, Op::OpIAdd, m_uint, {wx, emit(f, Op::OpIMul, m_uint, {wy, nx})});
        g = emit(f, Op::OpIAdd, m_uint, {g, emit(f, Op::OpIMul, m_uint, {wz, plane})});
        uint32_t local = emit(f, Op::OpLoad, m_uint, {m_localIndex});
        uint32_t inv = emit(f, Op::OpIAdd, m_uint, {emit(f, Op::OpIMul, m_uint, {g, perGroup}), local});
        uint32_t slots = loadData(f, 1), recordsAt = loadData(f, 5), statusAt = loadData(f, 7);
        uint32_t first = emit(f, Op::OpIMul, m_uint, {emit(f, Op::OpIMul, m_uint, {inv, slots}), m_m.constUint(kTraceRecordWords)});
        emitVoid(f, Op::OpStore, {m_slotsVar, slots});
        emitVoid(f, Op::OpStore, {m_baseVar, emit(f, Op::OpIAdd, m_uint, {recordsAt, first})});
        emitVoid(f, Op::OpStore, {m_countVar, emit(f, Op::OpIAdd, m_uint, {inv, m_m.constUint(kTraceHeaderWords)})});
        emitVoid(f, Op::OpStore, {m_statusVar, emit(f, Op::OpIAdd, m_uint, {statusAt, inv})});
        emitVoid(f, Op::OpReturn, {});
        emitVoid(f, Op::OpFunctionEnd, {});
    }

    // record(w0, index, value, extra): one record in this invocation's slots, if it has room;
    // its count goes on either way (the host derives the dropped records from the counts).
    void buildRecorder() {
        auto& f = m_m.newFunctions;
        f.push_back({op(Op::OpFunction), {m_void, m_recFn, 0, m_recType}});
        uint32_t p[4];
        for (uint32_t& id : p) {
            id = m_m.newId();
            f.push_back({op(Op::OpFunctionParameter), {m_uint, id}});
        }
        label(f);
        uint32_t pos = emit(f, Op::OpLoad, m_uint, {m_pos});
        uint32_t slots = emit(f, Op::OpLoad, m_uint, {m_slotsVar});
        uint32_t fits = emit(f, Op::OpULessThan, m_bool, {pos, slots});
        uint32_t writeL = m_m.newId(), mergeL = m_m.newId();
        emitVoid(f, Op::OpSelectionMerge, {mergeL, 0});
        emitVoid(f, Op::OpBranchConditional, {fits, writeL, mergeL});
        f.push_back({op(Op::OpLabel), {writeL}});
        uint32_t base = emit(f, Op::OpIAdd, m_uint, {emit(f, Op::OpLoad, m_uint, {m_baseVar}),
                                                     emit(f, Op::OpIMul, m_uint, {pos, m_m.constUint(kTraceRecordWords)})});
        for (uint32_t k = 0; k < 4; ++k) {
            uint32_t at = k ? emit(f, Op::OpIAdd, m_uint, {base, m_m.constUint(k)}) : base;
            emitVoid(f, Op::OpStore, {dataPtr(f, at), p[k]});
        }
        emitVoid(f, Op::OpBranch, {mergeL});
        f.push_back({op(Op::OpLabel), {mergeL}});
        // The count goes on past the slots: the host learns how many records each thread wanted.
        uint32_t next = emit(f, Op::OpIAdd, m_uint, {pos, m_m.constUint(1)});
        emitVoid(f, Op::OpStore, {dataPtr(f, emit(f, Op::OpLoad, m_uint, {m_countVar})), next});
        emitVoid(f, Op::OpStore, {m_pos, next});
        emitVoid(f, Op::OpReturn, {});
        emitVoid(f, Op::OpFunctionEnd, {});
    }

    // The start both loopOk(line) functions share: the line parameter, the back-edge counted, and
    // whether the count is within the budget (the id `budget(f)` gives, emitted in the function's
    // body) or has just gone past it.
    struct LoopCount {
        uint32_t line, iters, ok, first;
    };
    template <class Budget> LoopCount beginLoopOk(std::vector<SpvInst>& f, Budget budgetOf) {
        f.push_back({op(Op::OpFunction), {m_bool, m_loopFn, 0, m_loopType}});
        LoopCount c{};
        c.line = m_m.newId();
        f.push_back({op(Op::OpFunctionParameter), {m_uint, c.line}});
        label(f);
        c.iters = emit(f, Op::OpIAdd, m_uint, {emit(f, Op::OpLoad, m_uint, {m_iters}), m_m.constUint(1)});
        emitVoid(f, Op::OpStore, {m_iters, c.iters});
        uint32_t budget = budgetOf(f);
        c.ok = emit(f, Op::OpULessThanEqual, m_bool, {c.iters, budget});
        c.first = emit(f, Op::OpIEqual, m_bool, {c.iters, emit(f, Op::OpIAdd, m_uint, {budget, m_m.constUint(1)})});
        return c;
    }

    // loopOk(line): counts a back-edge; false once the budget is spent (recorded the first time).
    void buildLoopGuard() {
        auto& f = m_m.newFunctions;
        auto [line, iters, ok, first] = beginLoopOk(f, [&](std::vector<SpvInst>& body) { return loadData(body, 6); });
        uint32_t recL = m_m.newId(), mergeL = m_m.newId();
        emitVoid(f, Op::OpSelectionMerge, {mergeL, 0});
        emitVoid(f, Op::OpBranchConditional, {first, recL, mergeL});
        f.push_back({op(Op::OpLabel), {recL}});
        uint32_t statusAt = emit(f, Op::OpLoad, m_uint, {m_statusVar});
        uint32_t status = emit(f, Op::OpLoad, m_uint, {dataPtr(f, statusAt)}); // keeps the printf count
        status = emit(f, Op::OpBitwiseOr, m_uint, {status, emit(f, Op::OpBitwiseOr, m_uint, {m_m.constUint(kTraceBudgetFlag), line})});
        emitVoid(f, Op::OpStore, {dataPtr(f, statusAt), status});
        uint32_t w0 = emit(f, Op::OpBitwiseOr, m_uint, {m_m.constUint(packTraceWord0(TraceEventKind::LoopBudget, kTraceVariableNone, 0)), line});
        emit(f, Op::OpFunctionCall, m_void, {m_recFn, w0, m_m.constUint(0), iters, m_m.constUint(0)});
        emitVoid(f, Op::OpBranch, {mergeL});
        f.push_back({op(Op::OpLabel), {mergeL}});
        emitVoid(f, Op::OpReturnValue, {ok});
        emitVoid(f, Op::OpFunctionEnd, {});
    }

    // loopOk(line) of guardLoops: counts a back-edge against the budget (a constant: no load in
    // the loop); the first invocation to run out fills the loop-guard buffer (core/trace.h).
    void buildGuardOnly() {
        auto& f = m_m.newFunctions;
        auto [line, iters, ok, first] = beginLoopOk(f, [&](std::vector<SpvInst>&) { return m_m.constUint(m_guardBudget); });
        uint32_t countL = m_m.newId(), writeL = m_m.newId(), innerL = m_m.newId(), mergeL = m_m.newId();
        emitVoid(f, Op::OpSelectionMerge, {mergeL, 0});
        emitVoid(f, Op::OpBranchConditional, {first, countL, mergeL});
        f.push_back({op(Op::OpLabel), {countL}});
        uint32_t before = emit(f, Op::OpAtomicIAdd, m_uint, {dataPtr(f, m_m.constUint(kLoopGuardStopped)), m_m.constUint(1) /*Device*/,
                                                               m_m.constUint(0), m_m.constUint(1)});
        uint32_t firstOfAll = emit(f, Op::OpIEqual, m_bool, {before, m_m.constUint(0)});
        emitVoid(f, Op::OpSelectionMerge, {innerL, 0});
        emitVoid(f, Op::OpBranchConditional, {firstOfAll, writeL, innerL});
        f.push_back({op(Op::OpLabel), {writeL}});
        uint32_t wid = emit(f, Op::OpLoad, m_m.typeVector(m_uint, 3), {m_groupId});
        std::array<uint32_t, 6> fields{line, iters, emit(f, Op::OpLoad, m_uint, {m_localIndex}), emit(f, Op::OpCompositeExtract, m_uint, {wid, 0}),
                                       emit(f, Op::OpCompositeExtract, m_uint, {wid, 1}), emit(f, Op::OpCompositeExtract, m_uint, {wid, 2})};
        for (uint32_t k = 0; k < fields.size(); ++k) emitVoid(f, Op::OpStore, {dataPtr(f, m_m.constUint(kLoopGuardLine + k)), fields[k]});
        emitVoid(f, Op::OpBranch, {innerL});
        f.push_back({op(Op::OpLabel), {innerL}});
        emitVoid(f, Op::OpBranch, {mergeL});
        f.push_back({op(Op::OpLabel), {mergeL}});
        emitVoid(f, Op::OpReturnValue, {ok});
        emitVoid(f, Op::OpFunctionEnd, {});
    }

    // --- per function ---------------------------------------------------------------------
    std::optional<Chain> chainOf(uint32_t pointer) const {
        if (auto it = m_varIndex.find(pointer); it != m_varIndex.end()) return Chain{it->second, {}};
        if (auto it = m_chains.find(pointer); it != m_chains.end()) return it->second;
        return std::nullopt;
    }
    uint32_t asUint(std::vector<SpvInst>& out, uint32_t id) {
        const SpvInst* t = m_m.def(m_m.typeOf(id));
        if (!t || t->op != op(Op::OpTypeInt)) return m_m.constUint(0);
        if (t->w[1] != 32) return emit(out, t->w[2] ? Op::OpSConvert : Op::OpUConvert, m_uint, {id});
        return t->w[2] ? emit(out, Op::OpBitcast, m_uint, {id}) : id;
    }
    // Element count of one value of `type`, as factors to multiply (ids).
    std::vector<uint32_t> flatFactors(uint32_t type) {
        const SpvInst* t = m_m.def(type);
        if (!t) return {};
        if (t->op == op(Op::OpTypeVector)) return {m_m.constUint(t->w[2])};
        if (t->op == op(Op::OpTypeMatrix)) {
            auto f = flatFactors(t->w[1]);
            f.push_back(m_m.constUint(t->w[2]));
            return f;
        }
        if (t->op == op(Op::OpTypeArray)) {
            auto f = flatFactors(t->w[1]);
            f.push_back(t->w[2]);
            return f;
        }
        if (t->op == op(Op::OpTypeRuntimeArray)) return flatFactors(t->w[1]);
        return {};
    }
    uint32_t flatIndex(std::vector<SpvInst>& out, const Chain& c, uint32_t pointee) {
        uint32_t acc = 0, type = pointee;
        for (uint32_t idx : c.indices) {
            const SpvInst* t = m_m.def(type);
            if (!t) break;
            if (t->op == op(Op::OpTypeStruct)) {
                const SpvInst* k = m_m.def(idx);
                uint32_t member = k && k->op == op(Op::OpConstant) ? k->w[2] : 0;
                if (member + 1 >= t->w.size()) break;
                type = t->w[1 + member];
                continue;
            }
            uint32_t term = asUint(out, idx);
            uint32_t elem = t->w[1];
            if (t->op == op(Op::OpTypeArray) || t->op == op(Op::OpTypeRuntimeArray) || t->op == op(Op::OpTypeMatrix))
                for (uint32_t f : flatFactors(elem)) term = emit(out, Op::OpIMul, m_uint, {term, asUint(out, f)});
            acc = acc ? emit(out, Op::OpIAdd, m_uint, {acc, term}) : term;
            type = elem;
        }
        return acc ? acc : m_m.constUint(0);
    }
    uint32_t valueWord(std::vector<SpvInst>& out, uint32_t value, uint32_t type) {
        const SpvInst* t = m_m.def(type);
        if (!t) return m_m.constUint(0);
        if (t->op == op(Op::OpTypeBool)) return emit(out, Op::OpSelect, m_uint, {value, m_m.constUint(1), m_m.constUint(0)});
        if ((t->op == op(Op::OpTypeFloat) || t->op == op(Op::OpTypeInt)) && t->w[1] == 32)
            return type == m_uint ? value : emit(out, Op::OpBitcast, m_uint, {value});
        return m_m.constUint(0);
    }
    void record(std::vector<SpvInst>& out, TraceEventKind kind, uint32_t var, uint32_t index, uint32_t value, uint32_t extra) {
        uint32_t w0 = m_m.constUint(packTraceWord0(kind, var, m_line));
        emit(out, Op::OpFunctionCall, m_void, {m_recFn, w0, index, value, extra});
        if (kind != TraceEventKind::Barrier && kind != TraceEventKind::SubgroupBarrier) ++m_sites;
    }
    void access(std::vector<SpvInst>& out, TraceEventKind kind, uint32_t pointer, uint32_t value, uint32_t valueType, uint32_t extra = 0) {
        auto c = chainOf(pointer);
        if (!c) return;
        uint32_t index = flatIndex(out, *c, m_pointee.at(varId(c->variable)));
        record(out, kind, c->variable, index, valueWord(out, value, valueType), extra ? extra : m_m.constUint(0));
    }
    uint32_t varId(uint32_t index) const {
        for (const auto& [id, i] : m_varIndex)
            if (i == index) return id;
        return 0;
    }

    struct LoopInfo {
        uint32_t merge = 0;
        uint32_t line = 0;
    };

    void rewriteFunction(std::span<const SpvInst> fn, std::vector<SpvInst>& out) {
        std::map<uint32_t, size_t> blockOrder;
        for (const SpvInst& s : fn)
            if (s.op == op(Op::OpLabel)) blockOrder.emplace(s.w[0], blockOrder.size());
        std::map<uint32_t, LoopInfo> loops; // header -> merge
        std::map<uint32_t, std::set<uint32_t>> phiFixes; // merge block -> new predecessors
        uint32_t block = 0;
        m_line = 0;
        // A block's OpLine ends with the block, and glslang starts the block after `c ? x : y` or
        // `a && b` (and the branches without code of their own) with none: the store of
        // `temp[t] = t < n ? a[t] : 0u;` came out at line 0. Such a block takes the line of the
        // merge or branch instruction that first named it.
        std::map<uint32_t, uint32_t> lineOfLabel;
        size_t begin = out.size();
        bool isEntry = fn.front().w[1] == m_entry->w[1], initCalled = false;
        for (const SpvInst& s : fn) {
            // The entry point calls init() right after its local variables.
            if (logsAccesses() && isEntry && !initCalled && block && s.op != op(Op::OpVariable) && s.op != op(Op::OpLine) && s.op != op(Op::OpNoLine)) {
                emit(out, Op::OpFunctionCall, m_void, {m_initFn});
                initCalled = true;
            }
            switch (static_cast<Op>(s.op)) {
            case Op::OpLabel: {
                block = s.w[0];
                auto it = lineOfLabel.find(block);
                m_line = it == lineOfLabel.end() ? 0 : it->second;
                break;
            }
            case Op::OpLine: m_line = s.w[1]; break;
            case Op::OpNoLine: m_line = 0; break;
            case Op::OpLoopMerge:
                loops[block] = {s.w[0], m_line};
                lineOfLabel.emplace(s.w[0], m_line);
                lineOfLabel.emplace(s.w[1], m_line); // the continue target
                break;
            case Op::OpSelectionMerge: lineOfLabel.emplace(s.w[0], m_line); break;
            case Op::OpBranch: lineOfLabel.emplace(s.w[0], m_line); break;
            case Op::OpBranchConditional:
                lineOfLabel.emplace(s.w[1], m_line);
                lineOfLabel.emplace(s.w[2], m_line);
                break;
            case Op::OpSwitch: // selector, default, then (literal, label) pairs
                for (size_t k = 1; k < s.w.size(); k += 2) lineOfLabel.emplace(s.w[k], m_line);
                break;
            default: break;
            }
            if (isDebugPrintf(s, m_printfSet)) { // recorded when tracing, dropped otherwise
                if (m_printf) m_printf->rewrite(s, m_line, out);
                continue;
            }
            if (rewriteBackEdge(s, block, blockOrder, loops, phiFixes, out)) continue;
            if (logsAccesses()) rewriteAccess(s, out);
            else out.push_back(s);
        }
        fixPhis(std::span(out).subspan(begin), phiFixes);
    }

    static constexpr uint32_t kScopeWorkgroup = 2, kScopeSubgroup = 3; // SPIR-V Scope: Device 1, Workgroup 2, Subgroup 3
    // The value of a barrier's execution-scope operand (a constant id); Workgroup when it is not
    // a plain constant, so an unknown barrier still counts.
    uint32_t executionScope(uint32_t id) const {
        const SpvInst* k = m_m.def(id);
        return k && k->op == op(Op::OpConstant) && k->w.size() >= 3 ? k->w[2] : kScopeWorkgroup;
    }

    void rewriteAccess(const SpvInst& s, std::vector<SpvInst>& out) {
        switch (static_cast<Op>(s.op)) {
        case Op::OpAccessChain:
        case Op::OpInBoundsAccessChain:
            if (auto c = chainOf(s.w[2])) {
                c->indices.insert(c->indices.end(), s.w.begin() + 3, s.w.end());
                m_chains[s.w[1]] = *c;
            }
            break;
        case Op::OpCopyObject:
            if (auto c = chainOf(s.w[2])) m_chains[s.w[1]] = *c;
            break;
        case Op::OpStore:
            access(out, TraceEventKind::Write, s.w[0], s.w[1], m_m.typeOf(s.w[1]));
            break;
        case Op::OpControlBarrier:
            // Only a workgroup-wide barrier() ends a barrier round; subgroupBarrier() (execution
            // scope Subgroup) orders the accesses of one subgroup, which the race analysis needs.
            if (executionScope(s.w[0]) == kScopeWorkgroup)
                record(out, TraceEventKind::Barrier, kTraceVariableNone, m_m.constUint(0), m_m.constUint(0), m_m.constUint(0));
            else if (executionScope(s.w[0]) == kScopeSubgroup)
                record(out, TraceEventKind::SubgroupBarrier, kTraceVariableNone, m_m.constUint(0), m_m.constUint(0), m_m.constUint(0));
            break;
        case Op::OpAtomicStore:
            access(out, TraceEventKind::Atomic, s.w[0], s.w[3], m_m.typeOf(s.w[3]));
            break;
        default: break;
        }
        out.push_back(s);
        if (s.op == op(Op::OpLoad)) access(out, TraceEventKind::Read, s.w[2], s.w[1], s.w[0]);
        else if (isAtomic(s.op) && s.op != op(Op::OpAtomicStore) && s.w.size() >= 3) {
            std::vector<SpvInst> tmp;
            uint32_t operand = s.w.size() >= 6 ? valueWord(tmp, s.w[5], m_m.typeOf(s.w[5])) : 0;
            out.insert(out.end(), tmp.begin(), tmp.end());
            access(out, TraceEventKind::Atomic, s.w[2], s.w[1], s.w[0], operand);
        }
    }

    // A branch back to a loop header gets the budget check: keep looping only while it allows.
    bool rewriteBackEdge(const SpvInst& s, uint32_t block, const std::map<uint32_t, size_t>& order,
                         const std::map<uint32_t, LoopInfo>& loops, std::map<uint32_t, std::set<uint32_t>>& phiFixes,
                         std::vector<SpvInst>& out) {
        if (!m_o.loopBudget || (s.op != op(Op::OpBranch) && s.op != op(Op::OpBranchConditional))) return false;
        // A loop whose header is its own back-edge block: OpLoopMerge must stay right before the
        // branch, so the budget check goes in front of it.
        std::optional<SpvInst> merge;
        if (!out.empty() && out.back().op == op(Op::OpLoopMerge)) {
            merge = out.back();
            out.pop_back();
        }
        auto restore = [&] {
            if (merge) out.push_back(*merge);
        };
        auto isBack = [&](uint32_t target) {
            return loops.count(target) && order.count(block) && order.at(block) >= order.at(target);
        };
        if (s.op == op(Op::OpBranch)) {
            if (!isBack(s.w[0])) {
                restore();
                return false;
            }
            const LoopInfo& loop = loops.at(s.w[0]);
            uint32_t ok = emit(out, Op::OpFunctionCall, m_bool, {m_loopFn, m_m.constUint(loop.line)});
            restore();
            emitVoid(out, Op::OpBranchConditional, {ok, s.w[0], loop.merge});
            phiFixes[loop.merge].insert(block);
            ++m_loops;
            return true;
        }
        uint32_t cond = s.w[0], t = s.w[1], f = s.w[2];
        uint32_t header = isBack(t) ? t : isBack(f) ? f : 0;
        const LoopInfo* loop = header ? &loops.at(header) : nullptr;
        uint32_t other = header == t ? f : t;
        if (!loop || other != loop->merge) { // not a back-edge, or one that would need a new block
            restore();
            return false;
        }
        uint32_t ok = emit(out, Op::OpFunctionCall, m_bool, {m_loopFn, m_m.constUint(loop->line)});
        if (header == t) cond = emit(out, Op::OpLogicalAnd, m_bool, {cond, ok});
        else cond = emit(out, Op::OpLogicalOr, m_bool, {cond, emit(out, Op::OpLogicalNot, m_bool, {ok})});
        restore();
        SpvInst b = s;
        b.w[0] = cond;
        b.w.resize(3); // branch weights no longer describe the new condition
        out.push_back(b);
        ++m_loops;
        return true;
    }

    void fixPhis(std::span<SpvInst> fn, const std::map<uint32_t, std::set<uint32_t>>& fixes) {
        uint32_t block = 0;
        for (SpvInst& s : fn) {
            if (s.op == op(Op::OpLabel)) block = s.w[0];
            if (s.op != op(Op::OpPhi) || !fixes.count(block)) continue;
            for (uint32_t pred : fixes.at(block)) {
                bool present = false;
                for (size_t k = 3; k < s.w.size(); k += 2) present |= s.w[k] == pred;
                if (present) continue;
                s.w.push_back(m_m.undef(s.w[0]));
                s.w.push_back(pred);
            }
        }
    }

    SpirvEditor& m_m;
    const KernelInterface& m_reflected;
    const InstrumentOptions& m_o;
    uint32_t m_guardBudget = 0;
    TraceLayout m_layout;
    SpvInst* m_entry = nullptr;
    std::map<uint32_t, uint32_t> m_varIndex; // variable id -> layout index
    std::map<uint32_t, uint32_t> m_pointee;  // variable id -> pointee type
    std::map<uint32_t, Chain> m_chains;      // pointer id -> chain
    uint32_t m_uint = 0, m_bool = 0, m_void = 0, m_ptrData = 0;
    uint32_t m_traceVar = 0, m_pos = 0, m_iters = 0, m_groupId = 0, m_localIndex = 0;
    uint32_t m_recType = 0, m_loopType = 0, m_initType = 0, m_recFn = 0, m_loopFn = 0, m_initFn = 0;
    uint32_t m_slotsVar = 0, m_baseVar = 0, m_countVar = 0, m_statusVar = 0;
    uint32_t m_line = 0, m_sites = 0, m_loops = 0;
    uint32_t m_printfSet = 0;                 // NonSemantic.DebugPrintf's import, 0: none
    std::unique_ptr<PrintfRecorder> m_printf; // traced kernels that print
};

} // namespace

Result<InstrumentResult> instrumentKernel(std::span<const uint32_t> spirv, const InstrumentOptions& options) {
    auto editor = SpirvEditor::parse(spirv);
    if (!editor) return editor.error();
    auto reflected = reflectKernel(spirv);
    if (!reflected) return reflected.error();
    return Instrumenter(*editor, *reflected, options).run();
}

Result<InstrumentResult> guardLoops(std::span<const uint32_t> spirv, uint32_t loopBudget, const InstrumentOptions& options) {
    if (loopBudget == 0 || loopBudget == UINT32_MAX) return Error{ErrorKind::Usage, "the loop budget must be between 1 and 4294967294 back-edges"};
    auto editor = SpirvEditor::parse(spirv);
    if (!editor) return editor.error();
    auto reflected = reflectKernel(spirv);
    if (!reflected) return reflected.error();
    return Instrumenter(*editor, *reflected, options, loopBudget).run();
}

Status validateSpirv(std::span<const uint32_t> spirv) {
    spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
    std::string messages;
    tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& pos, const char* msg) {
        messages += "word " + std::to_string(pos.index) + ": " + msg + "\n";
    });
    if (tools.Validate(spirv.data(), spirv.size())) return okStatus();
    return Error{ErrorKind::Internal, "invalid SPIR-V: " + messages};
}

} // namespace vkp
