#include "rewrite/instrument.h"

#include <memory>

#include "rewrite/access_log_rewriter.h"
#include "rewrite/barrier_rounds_rewriter.h"
#include "rewrite/instrument_state.h"
#include "rewrite/loop_budget_rewriter.h"
#include "rewrite/printf_rewrite.h"
#include "rewrite/schedule_rewriter.h"
#include "rewrite/shared_bounds_rewriter.h"
#include "rewrite/trace_objects.h"
#include "rewrite/undefined_values_rewriter.h"
#include "shader/line_recovery.h"
#include "shader/reflect.h"

namespace vkp {
namespace {

using Op = spv::Op;

// Runs the rewriters over one kernel: the trace objects first, then every function instruction by
// instruction (line recovery, printf, loop budget, barrier rounds, the access log and the shared
// bounds, each seeing the instructions in order), then the module is assembled.
class Instrumenter {
  public:
    Instrumenter(SpirvModule& module, const KernelInterface& reflected,
                 const InstrumentOptions& options, uint32_t guardBudget = 0)
        : m_state{module, options, guardBudget}, m_accessLog(m_state, reflected),
          m_barriers(m_state), m_loopBudget(m_state), m_schedule(m_state), m_undefined(m_state),
          m_bounds(module) {
        m_state.reflected = &reflected;
    }

    Result<InstrumentResult> run() {
        SpirvModule& module = m_state.module;
        const SpirvInstruction* entry = module.entryPoint();
        if (!entry) return Error{ErrorKind::Internal, "the kernel has no entry point"};
        m_state.entryFunction = entry->operand(1);
        m_state.layout.traceSet = m_state.options.traceSet;
        m_state.layout.traceBinding = m_state.options.traceBinding;
        m_printfSet = debugPrintfSet(module);
        if (m_state.logsAccesses()) m_accessLog.findVariables();
        declareTraceObjects(m_state);
        if (m_state.logsAccesses() && m_printfSet) declarePrintf();
        if (m_state.logsAccesses()) {
            buildTraceFunctions(m_state);
            m_undefined.build();
        }
        if (m_state.logsAccesses() && !m_state.options.scheduleBindings.empty()) {
            m_schedule.declare();
            m_schedule.build();
        }
        m_loopBudget.buildLoopOk();
        rewriteFunctions();
        if (m_printfSet) dropDebugPrintfImport(module, m_printfSet);
        if (m_printf) m_state.layout.printfFormats = m_printf->formats();
        InstrumentResult r;
        r.spirv = module.assemble();
        r.layout = m_state.layout;
        r.accessSites = m_state.accessSites;
        r.loopsGuarded = m_state.loopsGuarded;
        r.printfCalls = m_printf ? m_printf->calls() : 0;
        r.sharedIndicesClamped = m_bounds.clamped();
        return r;
    }

  private:
    // debugPrintfEXT calls become records (rewrite/printf_rewrite.h), counted per invocation.
    void declarePrintf() {
        SpirvModule& module = m_state.module;
        const TraceObjectIds& ids = m_state.ids;
        PrintfTarget target{ids.uintType,       ids.boolType,      ids.voidType,
                            ids.recordFunction, ids.traceVariable, ids.dataPointerType,
                            ids.nextSlot,       ids.slotCount,     ids.statusWord};
        uint32_t privateUint = module.typePointer(spv::StorageClass::Private, ids.uintType);
        for (uint32_t* var : {&target.linesVar, &target.usedVar}) {
            *var = module.addGlobalVariable(privateUint, spv::StorageClass::Private,
                                            module.constUint(0));
            module.addToInterface(*var);
        }
        m_printf = std::make_unique<PrintfRecorder>(module, target);
    }

    void rewriteFunctions() {
        SpirvModule& module = m_state.module;
        std::vector<SpirvInstruction> out;
        size_t start = 0;
        for (size_t i = 0; i < module.functions.size(); ++i) {
            if (module.functions[i].opcode() != Op::OpFunctionEnd) continue;
            // The first function's OpLine before OpFunction is the last of the globals; the
            // others' come first in their own instructions.
            uint32_t declared = 0;
            if (start == 0 && !module.globals.empty() &&
                module.globals.back().opcode() == Op::OpLine)
                declared = module.globals.back().operand(1);
            rewriteFunction(std::span(module.functions).subspan(start, i + 1 - start), out,
                            declared);
            start = i + 1;
        }
        module.functions = std::move(out);
    }

    void rewriteFunction(std::span<const SpirvInstruction> function,
                         std::vector<SpirvInstruction>& out, uint32_t declaredLine) {
        m_lines.beginFunction(declaredLine);
        m_state.line = 0;
        m_loopBudget.beginFunction(function);
        size_t begin = out.size();
        // The entry point calls init() right after its local variables.
        bool isEntry = function.front().resultId() == m_state.entryFunction;
        bool initPending = m_state.logsAccesses() && isEntry;
        m_schedule.beginFunction(isEntry);
        if (m_state.logsAccesses()) m_undefined.beginFunction(function);
        bool inBlock = false;
        for (size_t k = 0; k < function.size(); ++k) {
            const SpirvInstruction& inst = function[k];
            const SpirvInstruction* next = k + 1 < function.size() ? &function[k + 1] : nullptr;
            Op op = inst.opcode();
            bool firstLabel = op == Op::OpLabel && !inBlock;
            if (initPending && inBlock && op != Op::OpVariable && op != Op::OpLine &&
                op != Op::OpNoLine) {
                SpirvBuilder(m_state.module, out)
                    .call(m_state.ids.voidType, m_state.ids.initFunction, {});
                initPending = false;
            }
            inBlock |= op == Op::OpLabel;
            m_lines.observe(inst);
            m_state.line = m_state.layout.site(m_lines.line()); // a site: lines stay host-side
            m_loopBudget.observe(inst);
            if (isDebugPrintf(inst, m_printfSet)) { // recorded when tracing, dropped otherwise
                if (m_printf) m_printf->rewrite(inst, m_state.line, out);
                continue;
            }
            m_loopBudget.before(inst, out);
            if (m_loopBudget.rewriteBackEdge(inst, out)) continue;
            if (m_state.logsAccesses() && isEntry && op == Op::OpReturn)
                storeRecordCount(m_state, out);
            if (m_state.logsAccesses()) {
                m_schedule.before(inst, out);
                m_accessLog.before(inst, out);
                m_barriers.before(inst, out);
                m_undefined.before(inst, next, out);
            }
            // A read of a scheduled buffer goes through the schedule's view of it; the log then
            // records the value the kernel saw. A chain into shared memory stays in bounds (the
            // log above took the indices the kernel asked for).
            if (!(m_state.logsAccesses() && m_schedule.rewriteRead(inst, out))) {
                SpirvInstruction emitted = m_bounds.rewrite(inst, out);
                out.push_back(std::move(emitted));
            }
            if (m_state.logsAccesses()) {
                if (firstLabel) m_undefined.afterFirstLabel(out); // its shadow variables
                m_accessLog.after(inst, out);
                m_undefined.after(inst, out);
                m_schedule.after(inst, out);
            }
        }
        m_loopBudget.endFunction(std::span(out).subspan(begin));
    }

    InstrumentState m_state;
    AccessLogRewriter m_accessLog;
    BarrierRoundsRewriter m_barriers;
    LoopBudgetRewriter m_loopBudget;
    ScheduleRewriter m_schedule;         // traced kernels: the forced-schedule hooks
    UndefinedValuesRewriter m_undefined; // traced kernels: where shuffled values are used
    SharedBoundsRewriter m_bounds;
    LineRecovery m_lines;
    uint32_t m_printfSet = 0;                 // NonSemantic.DebugPrintf's import, 0: none
    std::unique_ptr<PrintfRecorder> m_printf; // traced kernels that print
};

} // namespace

Result<InstrumentResult> instrumentKernel(std::span<const uint32_t> spirv,
                                          const InstrumentOptions& options) {
    auto editor = SpirvModule::parse(spirv);
    if (!editor) return editor.error();
    auto reflected = reflectKernel(spirv);
    if (!reflected) return reflected.error();
    return Instrumenter(*editor, *reflected, options).run();
}

Result<InstrumentResult> guardKernel(std::span<const uint32_t> spirv, uint32_t loopBudget,
                                     const InstrumentOptions& options) {
    if (loopBudget == 0 || loopBudget == UINT32_MAX)
        return Error{ErrorKind::Usage,
                     "the loop budget must be between 1 and 4294967294 back-edges"};
    auto editor = SpirvModule::parse(spirv);
    if (!editor) return editor.error();
    auto reflected = reflectKernel(spirv);
    if (!reflected) return reflected.error();
    return Instrumenter(*editor, *reflected, options, loopBudget).run();
}

} // namespace vkp
