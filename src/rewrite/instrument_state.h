// What the instrumentation rewriters (rewrite/instrument.h) share while they rewrite one kernel:
// the module, the options, the ids of the trace objects, the layout handed back, the source line of
// the instruction being rewritten, and the counts reported in InstrumentResult.
#pragma once

#include <cstdint>
#include <vector>

#include "rewrite/instrument.h"
#include "shader/reflect.h"
#include "shader/spirv_builder.h"
#include "shader/spirv_module.h"
#include "trace/trace.h"

namespace vkp {

// Ids the trace objects rewriter (rewrite/trace_objects.h) declares; 0 where a mode needs none.
struct TraceObjectIds {
    uint32_t uintType = 0, boolType = 0, voidType = 0;
    uint32_t dataPointerType = 0; // pointer to one word of the trace buffer
    uint32_t traceVariable = 0;   // the trace (or loop-guard) buffer
    // The same buffer seen as uvec4s: a record is one 16-byte store (records start at a multiple
    // of kTraceRecordWords words), which lavapipe builds far faster than four word stores.
    uint32_t recordVariable = 0, recordPointerType = 0, uvec4Type = 0;
    uint32_t backEdgeCount = 0;               // Private: back-edges this invocation took
    uint32_t workgroupId = 0, localIndex = 0; // the built-ins, found or added
    uint32_t subgroupLane = 0;                // SubgroupLocalInvocationId, added on first need
    uint32_t nextSlot = 0;                    // Private: this invocation's next record slot
    uint32_t slotCount = 0, firstRecord = 0 /* in records */, countWord = 0,
             statusWord = 0; // Private, set by init()
    uint32_t recordFunction = 0, loopOkFunction = 0, initFunction = 0;
    // poll(w0, index, value, extra), for the reads of a volatile buffer: a record as record()
    // writes it, or, when it repeats the poll just before it, a Repeat record's count goes up
    // (trace/trace.h). Its Private state: the poll record last written, the slot after it (all
    // ones: none), the slot of its Repeat record plus one (0: none) and that record's count.
    uint32_t pollFunction = 0, lastPoll = 0, pollEnd = 0, repeatAt = 0, repeats = 0;
    uint32_t recordFunctionType = 0, loopOkFunctionType = 0, initFunctionType = 0;
};

struct InstrumentState {
    SpirvModule& module;
    const InstrumentOptions& options;
    uint32_t guardBudget = 0; // 0: the full trace; otherwise guardKernel's budget, nothing else
    // The entry point's function. An id, not the OpEntryPoint itself: a capability declared
    // while the functions are rewritten (requireCapability) moves the preamble's instructions.
    uint32_t entryFunction = 0;
    const KernelInterface* reflected = nullptr; // the kernel as reflection read it
    TraceObjectIds ids;
    TraceLayout layout;
    uint32_t line = 0; // the site (TraceLayout::siteLines) of the instruction's source line
    // By TraceLayout::variables index: a buffer declared volatile, whose reads are polls (another
    // workgroup may change it while this one reads it again and again: a look-back).
    std::vector<bool> volatileVariables;
    uint32_t accessSites = 0;  // loads/stores/atomics given a record
    uint32_t loopsGuarded = 0; // back-edges given a budget check

    bool logsAccesses() const { return guardBudget == 0; }

    // A pointer to word `index` (an id) of the trace buffer, and the load of a constant word.
    uint32_t traceWord(SpirvBuilder& b, uint32_t index) {
        uint32_t zero = b.uint(0);
        return b.accessChain(ids.dataPointerType, ids.traceVariable, {zero, index});
    }
    uint32_t loadTraceWord(SpirvBuilder& b, uint32_t word) {
        return b.load(ids.uintType, traceWord(b, b.uint(word)));
    }
    // A call of record(w0, index, value, extra) for an event at the current line.
    void record(SpirvBuilder& b, TraceEventKind kind, uint32_t variable, uint32_t index,
                uint32_t value, uint32_t extra) {
        uint32_t w0 = b.uint(packTraceWord0(kind, variable, line));
        b.call(ids.voidType, ids.recordFunction, {w0, index, value, extra});
        if (kind != TraceEventKind::Barrier && kind != TraceEventKind::SubgroupBarrier)
            ++accessSites;
    }
    // A read of `variable`: a call of poll() where it is a volatile buffer, else of record().
    void read(SpirvBuilder& b, uint32_t variable, uint32_t index, uint32_t value, uint32_t extra) {
        if (!ids.pollFunction || variable >= volatileVariables.size() ||
            !volatileVariables[variable])
            return record(b, TraceEventKind::Read, variable, index, value, extra);
        uint32_t w0 = b.uint(packTraceWord0(TraceEventKind::Read, variable, line));
        b.call(ids.voidType, ids.pollFunction, {w0, index, value, extra});
        ++accessSites;
    }
};

} // namespace vkp
