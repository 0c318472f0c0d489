// Execution traces: the record format an instrumented kernel writes, and the decoded events.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "reference/buffer_data.h"

namespace vkp {

// --- The trace buffer, as the instrumented kernel and the host share it -----------------------
// Words: [0] a forced schedule's block (trace/forced_schedule.h; 0: none), [1] record slots per
// invocation, [2] invocations per workgroup, [3] workgroups in x, [4] workgroups in y, [5] word
// offset of the records, [6] loop budget (back-edges per invocation), [7] word offset of the status
// words; then one record count per invocation (counting on past its slots: the records it wanted;
// written when the invocation returns);
// then one status word per invocation (kTraceBudgetFlag | line once it ran out of loop budget, kept
// even when its slots are full; bits 20-30: debugPrintfEXT lines it could not record, up to
// kTracePrintfDroppedMax); then each invocation's slots of
// kTraceRecordWords words. Only the header, counts and status need initialising.
inline constexpr uint32_t kTraceHeaderWords = 8;
inline constexpr uint32_t kTraceRecordWords = 4;
// Where the records begin after `words` words of header, counts, status and schedule: rounded up
// to a whole record, so that a kernel writes each record as one 16-byte store.
inline constexpr uint64_t recordsStart(uint64_t words) {
    return (words + kTraceRecordWords - 1) / kTraceRecordWords * kTraceRecordWords;
}
inline constexpr uint32_t kTraceLineBits = 20; // record word 0: kind(4) | variable(8) | line(20)
inline constexpr uint32_t kTraceVariableNone = 0xff;
inline constexpr uint32_t kDefaultLoopBudget = 60000; // below lavapipe's 65535 cut-off
inline constexpr uint32_t kTraceBudgetFlag = 0x80000000u;
inline constexpr uint32_t kTracePrintfDroppedShift = 20;  // status word: printf lines not recorded
inline constexpr uint32_t kTracePrintfDroppedMax = 0x7ff; // (saturating)
// debugPrintfEXT lines a thread may record; past them (or past half its slots, so accesses keep
// room) its lines are only counted. A kernel that prints in a loop cannot fill memory.
inline constexpr uint32_t kPrintfLinesPerThread = 64;
inline constexpr uint32_t kPrintfMaxArgWords =
    32; // argument words recorded per line (more: dropped)

// --- The loop-guard buffer of an untraced run (rewrite/instrument.h guardKernel)
// ------------------- Words: [0] the loop budget, [1] invocations that ran out of it (atomic), then
// what the first of them left: [2] the line of its loop, [3] its back-edges, [4] its local
// invocation index, [5..7] its workgroup id. The kernel only writes; the host fills word 0 for the
// message.
inline constexpr uint32_t kLoopGuardStopped = 1;
inline constexpr uint32_t kLoopGuardLine = 2;
inline constexpr uint32_t kLoopGuardWords = 8;
std::vector<uint32_t> makeLoopGuardBuffer(uint32_t loopBudget);

enum class TraceEventKind : uint8_t {
    Read = 1,       // a load; value = what was read; extra = packVectorPart for a vector's scalar
    Write = 2,      // a store; value = what was written; extra as for Read
    Atomic = 3,     // a read-modify-write; value = the old value, extra = the operand
    Barrier = 4,    // the invocation reached a control barrier
    LoopBudget = 5, // the invocation ran out of loop iterations; value = back-edges taken
    // Record kinds of debugPrintfEXT, decoded into Trace::prints (never into Trace::threads):
    // Printf: variable field = argument words, index = format (TraceLayout::printfFormats),
    // value and extra = the first two argument words; PrintfArgs records follow with three more
    // words each (index, value, extra).
    Printf = 6,
    PrintfArgs = 7,
    SubgroupBarrier = 8, // subgroupBarrier(): orders the accesses of its subgroup, not a new round
    // A value from another lane (subgroupShuffle*, subgroupBroadcast*): variable = none,
    // index = the op's lane operand (the lane, mask or delta; for subgroupBroadcastFirst, which
    // has none, the first active lane as the device found it), value = what arrived, extra =
    // packShuffleExtra(op, type of the value), with kShuffleSourceInactive set when the lane the
    // op named did not run it (inactive, or past the subgroup): the value is then undefined.
    Shuffle = 9,
    // A value a shuffle or broadcast took from a lane that did not run it (the undefined value of
    // a Shuffle record with kShuffleSourceInactive), or a value computed from one, reached a store
    // to memory, a branch's condition, an index, an atomic, a call or a return at this record's
    // line (rewrite/undefined_values_rewriter.h): variable = none, index, value and extra 0.
    UndefinedUse = 10,
    // The record before it happened again, `index` more times in a row, each one the same (a poll
    // of a volatile buffer that read the same value: rewrite/trace_objects.h). Decoded into that
    // many copies of the event, as long as the thread's slots would have held them (the rest are
    // counted in Trace::foldedRepeats), never into an event of its own.
    Repeat = 11,
};
const char* traceEventKindName(TraceEventKind kind);

// The subgroup operations a Shuffle record stands for.
enum class ShuffleOp : uint8_t { Shuffle, Xor, Up, Down, Broadcast, BroadcastFirst };
inline uint32_t packShuffleExtra(ShuffleOp op, ElementKind type) {
    return (uint32_t(op) << 4) | uint32_t(type);
}
const char* shuffleOpName(ShuffleOp op); // "xor", "broadcast first"
inline constexpr uint32_t kShuffleSourceInactiveShift = 8;
inline constexpr uint32_t kShuffleSourceInactive = 1u << kShuffleSourceInactiveShift;
inline ShuffleOp shuffleOpOf(uint32_t extra) {
    return static_cast<ShuffleOp>(std::min<uint32_t>((extra >> 4) & 0xf, 5));
}
inline bool shuffleSourceInactive(uint32_t extra) {
    return (extra & kShuffleSourceInactive) != 0;
}
inline ElementKind shuffleTypeOf(uint32_t extra) {
    return static_cast<ElementKind>(extra & 0xf);
}

// A Read or Write record of one scalar of a vector that one instruction moved whole (a vec4 of
// a shared tile, a matrix's column): its extra holds the vector's width and the scalar's
// component, so that the efficiency model sees one wide access, not `width` narrow ones. 0 for
// a scalar moved on its own.
inline uint32_t packVectorPart(uint32_t width, uint32_t component) {
    return ((width & 0xff) << 8) | (component & 0xff);
}
inline uint32_t vectorWidthOf(uint32_t extra) {
    return (extra >> 8) & 0xff;
}
inline uint32_t vectorComponentOf(uint32_t extra) {
    return extra & 0xff;
}

inline uint32_t packTraceWord0(TraceEventKind kind, uint32_t variable, uint32_t line) {
    return (uint32_t(kind) << 28) | ((variable & 0xff) << kTraceLineBits) |
           (line & ((1u << kTraceLineBits) - 1));
}

// A length or stride of a shared array: a literal, a specialization constant, or arithmetic
// over them (glslang's OpSpecConstantOp), evaluated per case from its constants.
struct SizeExpr {
    // Unknown: an operation the reflection does not model (a select, say): its length is not
    // known here, and only the driver judges it.
    enum class Kind {
        Literal,
        Spec,
        Add,
        Sub,
        Mul,
        Div,
        Mod,
        ShiftLeft,
        ShiftRight,
        And,
        Or,
        Xor,
        Unknown
    };
    Kind kind = Kind::Literal;
    uint32_t value = 0;             // Literal: the value; Spec: the default value
    uint32_t specId = 0;            // Spec
    std::vector<SizeExpr> operands; // the operations: two

    // Unknown (anywhere inside) evaluates to 0; known() says whether the value means anything.
    uint64_t evaluate(const std::map<uint32_t, uint32_t>& constants) const;
    bool known() const;
};

// A variable the instrumented kernel traces: a storage buffer or a shared array.
struct TracedVariable {
    std::string name; // the array's name (buffer block member or shared variable)
    bool shared = false;
    uint32_t set = 0, binding = 0; // buffers
    std::vector<SizeExpr> dims;    // shared: array lengths, outermost first (flattened row-major)
    std::optional<ElementKind> elementType; // when the elements are 32-bit scalars (or vectors)
    // Scalars per element (4 for vec4): of a shared array, or of a buffer read through a vector
    // view (`vec4 a4[]`). Indices count scalars either way.
    uint32_t elementWidth = 1;
};

// What the instrumentation reports besides the rewritten words.
struct TraceLayout {
    std::vector<TracedVariable> variables;  // record variable index -> variable
    std::vector<std::string> printfFormats; // debugPrintfEXT format strings, by record format index
    uint32_t traceSet = 1, traceBinding = 0;
    // What a record, a status word or the loop guard names where a line would be: a site, the
    // index here of its source line (0: none known). Lines stay out of the kernel, so a kernel
    // whose code is unchanged (a comment or blank line added) compiles to the same words, and the
    // same pipelines serve it.
    std::vector<uint32_t> siteLines{0};

    uint32_t site(uint32_t line); // the site of a line, added on first use
};

// The source line of a site of `siteLines` (TraceLayout); empty `siteLines`: the site is the line.
inline uint32_t lineOfSite(const std::vector<uint32_t>& siteLines, uint32_t site) {
    if (siteLines.empty()) return site;
    return site < siteLines.size() ? siteLines[site] : 0;
}

// One decoded record, in its invocation's program order.
struct TraceEvent {
    TraceEventKind kind = TraceEventKind::Read;
    uint32_t variable = kTraceVariableNone; // index into Trace::variables
    uint32_t line = 0;
    uint32_t index = 0; // flattened element index
    uint32_t value = 0; // bit pattern
    uint32_t extra = 0;
    uint32_t round = 0; // barriers this invocation had passed before the event
};

// The launch a trace came from, to name invocations.
struct TraceLaunch {
    std::array<uint32_t, 3> workgroupSize{1, 1, 1};
    std::array<uint32_t, 3> workgroups{1, 1, 1};

    uint32_t invocationsPerGroup() const {
        return workgroupSize[0] * workgroupSize[1] * workgroupSize[2];
    }
    uint64_t invocations() const {
        return uint64_t(invocationsPerGroup()) * workgroups[0] * workgroups[1] * workgroups[2];
    }
};

// Ids of one invocation, from its flat index (workgroup-major, then local index).
struct InvocationIds {
    std::array<uint32_t, 3> local{}, group{}, global{};
    uint32_t localIndex = 0, groupIndex = 0;
};
InvocationIds invocationIds(const TraceLaunch& launch, uint64_t invocation);
// The flat index of the invocation with this global id (workgroup-major, then local index): the
// inverse of invocationIds. The id must lie inside the launch; callers that parse one check first.
uint64_t invocationIndex(const TraceLaunch& launch, const std::array<uint32_t, 3>& global);
std::string invocationName(const TraceLaunch& launch,
                           uint64_t invocation); // "thread (3, 1) of workgroup (1, 0)"
// "workgroup 3", "workgroup (1, 2)": a workgroup by its flat index, with as many ids as the launch
// has dimensions.
std::string workgroupName(const TraceLaunch& launch, uint64_t group);

struct TraceVariableInfo {
    TracedVariable decl;
    uint64_t length = 0;        // elements (buffers: of the case's data; shared: from dims)
    std::vector<uint64_t> dims; // shared: evaluated
    int puzzleBuffer = -1;      // index into Puzzle::buffers for buffers of the puzzle
};

// The rows and columns a shared array of `scalars` scalars is drawn in, or nothing for a plain
// row of cells: a 2D array [R][C] is R rows of C elements; an array of vectors has a vector's
// components side by side (vec4 t[N]: N rows of 4; vec2 buf[2][L]: 2 rows of 2L, x then y of each
// element), so a tile keeps its shape and a complex number its two halves.
struct GridShape {
    uint64_t rows = 0, cols = 0;
};
std::optional<GridShape> sharedGrid(const TraceVariableInfo& v, uint64_t scalars);

// One debugPrintfEXT call a thread made, as recorded (trace/debug_printf.h formats it).
struct PrintfRecord {
    uint64_t invocation = 0;
    uint32_t format = 0; // index into Trace::printfFormats
    uint32_t line = 0;
    uint32_t afterEvents = 0;   // events of its thread before it: its place in program order
    std::vector<uint32_t> args; // argument words (32-bit values; 64-bit ones as low, high)
};

struct Trace;

// Where a Shuffle event's value came from: the invocation whose lane the op named (for
// subgroupBroadcastFirst, the first active lane the record carries), by the lane ids of the
// device's subgroups (Trace::subgroupSize), numbered along the local invocation index as every
// device we know numbers them. Nothing for a lane outside the subgroup, or a trace without the
// subgroup size.
// Nothing either where the record says that lane did not run the op (kShuffleSourceInactive).
std::optional<uint64_t> shuffleSource(const Trace& t, uint64_t invocation, const TraceEvent& e);
// The lane number the op named from the taker's lane (xor 4 from lane 1: 5), which may lie
// outside the subgroup (below 0 for an up past lane 0); nothing without the subgroup size.
std::optional<int64_t> shuffleSourceLane(const Trace& t, uint64_t invocation, const TraceEvent& e);
// "xor 1: 4 from lane 1, thread 1": the op, what arrived and, given the invocation that made the
// event, from where.
std::string shuffleText(const Trace& t, const TraceEvent& e,
                        std::optional<uint64_t> invocation = std::nullopt);

struct Trace {
    TraceLaunch launch;
    std::vector<TraceVariableInfo> variables;
    std::vector<std::vector<TraceEvent>> threads; // per invocation, in program order
    std::vector<std::string> printfFormats;       // from TraceLayout::printfFormats
    std::vector<PrintfRecord> prints;             // by invocation, then program order
    std::map<uint64_t, uint32_t> printsDropped;   // invocation -> lines it could not record
    uint64_t dropped = 0;                         // records that did not fit
    uint32_t slotsPerInvocation = 0;
    uint32_t mostRecordsWanted = 0; // the most records one invocation made, kept or dropped
    // Repeated polls past a thread's slots (TraceEventKind::Repeat): counted, not decoded.
    uint64_t foldedRepeats = 0;
    uint32_t subgroupSize =
        0;              // the device's (set by the check); 0: subgroup barriers order nothing
    std::string source; // the kernel's text (set by the check), quoted by the efficiency lens
    uint64_t eventCount() const;
};

// The initial contents of a trace buffer (header, zeroed counts and status) and, in
// `totalWords`, the size the whole buffer needs (records after the initial part).
// `scheduleBlock`: a forced schedule's words (trace/forced_schedule.h), placed after the status
// words with header word 0 pointing at them; empty: none (word 0 stays 0).
std::vector<uint32_t> makeTraceBuffer(const TraceLaunch& launch, uint32_t slotsPerInvocation,
                                      uint32_t loopBudget, uint64_t* totalWords,
                                      std::span<const uint32_t> scheduleBlock = {});

// The part of a trace buffer worth reading back, packed: the header, counts and status words as
// they are, then each invocation's records (at most its slots) one invocation after another, with
// no unused slots between them. A check gives each case 16 MiB of slots and threads usually fill a
// few; only what was written is copied out of device memory and through the worker's pipe.
// `device` is the buffer as the kernel left it; an inconsistent header gives what decodeTrace
// then rejects, never a read past `device`.
std::vector<uint32_t> packTraceBuffer(std::span<const uint32_t> device);

// Decodes a packed trace buffer (packTraceBuffer); rounds are derived from each invocation's
// barriers. debugPrintfEXT records go to Trace::prints, with `printfFormats` (the layout's). Sites
// become lines through `siteLines` (the layout's; empty: records hold lines).
Result<Trace> decodeTrace(std::span<const uint32_t> words, const TraceLaunch& launch,
                          std::vector<TraceVariableInfo> variables,
                          std::vector<std::string> printfFormats = {},
                          const std::vector<uint32_t>& siteLines = {});

// "a[3]", "tile[1][2]": a cell of a traced variable, by its flattened index (of scalars: a shared
// array of vec4 names the component, "tileB[2][0].y", and so does a buffer's vector view,
// "a4[3].y", by the view's own index whatever the buffer's dimensions).
std::string traceCellName(const Trace& trace, uint32_t variable, uint32_t index);

// The variable whose cells `variable`'s are: the first traced buffer of the same puzzle buffer
// (of the same set and binding, for one that is not the puzzle's), since a kernel may declare one
// binding twice, a float view and a vec4 view of the same memory; the variable itself otherwise.
// Indices count scalars in every view, so (owner, index) is one cell.
uint32_t cellOwner(const Trace& trace, uint32_t variable);

} // namespace vkp
