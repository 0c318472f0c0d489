#include "rewrite/trace_objects.h"

#include <algorithm>
#include <functional>

namespace vkp {
namespace {

using Op = spv::Op;
using spv::StorageClass;

// The trace block: struct { ELEMENT data[]; } at the options' set and binding (uint words, or
// uvec4 records: two views of one buffer, which Vulkan allows for one descriptor).
uint32_t declareTraceBuffer(InstrumentState& state, uint32_t element, uint32_t stride) {
    SpirvModule& module = state.module;
    uint32_t runtime = module.newId(), block = module.newId();
    module.newGlobals.emplace_back(Op::OpTypeRuntimeArray, std::vector<uint32_t>{runtime, element});
    module.newGlobals.emplace_back(Op::OpTypeStruct, std::vector<uint32_t>{block, runtime});
    auto decorate = [&](Op opcode, std::vector<uint32_t> operands) {
        module.newAnnotations.emplace_back(opcode, std::move(operands));
    };
    decorate(Op::OpDecorate, {runtime, uint32_t(spv::Decoration::ArrayStride), stride});
    decorate(Op::OpMemberDecorate, {block, 0, uint32_t(spv::Decoration::Offset), 0});
    decorate(Op::OpDecorate, {block, uint32_t(spv::Decoration::Block)});
    uint32_t var = module.addGlobalVariable(module.typePointer(StorageClass::StorageBuffer, block),
                                            StorageClass::StorageBuffer);
    decorate(Op::OpDecorate,
             {var, uint32_t(spv::Decoration::DescriptorSet), state.options.traceSet});
    decorate(Op::OpDecorate, {var, uint32_t(spv::Decoration::Binding), state.options.traceBinding});
    return var;
}

} // namespace

void declareTraceObjects(InstrumentState& state) {
    SpirvModule& module = state.module;
    TraceObjectIds& ids = state.ids;
    ids.uintType = module.typeUint();
    ids.boolType = module.typeBool();
    ids.voidType = module.typeVoid();
    uint32_t uvec3 = module.typeVector(ids.uintType, 3);
    ids.traceVariable = declareTraceBuffer(state, ids.uintType, 4);
    ids.dataPointerType = module.typePointer(StorageClass::StorageBuffer, ids.uintType);
    uint32_t privateUint = module.typePointer(StorageClass::Private, ids.uintType);
    auto privateCounter = [&] {
        return module.addGlobalVariable(privateUint, StorageClass::Private, module.constUint(0));
    };
    ids.backEdgeCount = privateCounter();
    ids.workgroupId = state.module.builtinVariable(spv::BuiltIn::WorkgroupId,
                                                   module.typePointer(StorageClass::Input, uvec3));
    ids.localIndex = state.module.builtinVariable(
        spv::BuiltIn::LocalInvocationIndex, module.typePointer(StorageClass::Input, ids.uintType));
    for (uint32_t var : {ids.traceVariable, ids.backEdgeCount, ids.workgroupId, ids.localIndex})
        module.addToInterface(var);
    ids.loopOkFunctionType = module.typeFunction(ids.boolType, {ids.uintType});
    ids.loopOkFunction = module.newId();
    if (!state.logsAccesses()) return;
    ids.nextSlot = privateCounter();
    module.addToInterface(ids.nextSlot);
    ids.uvec4Type = module.typeVector(ids.uintType, 4);
    ids.recordVariable = declareTraceBuffer(state, ids.uvec4Type, 4 * kTraceRecordWords);
    ids.recordPointerType = module.typePointer(StorageClass::StorageBuffer, ids.uvec4Type);
    module.addToInterface(ids.recordVariable);
    ids.recordFunctionType =
        module.typeFunction(ids.voidType, {ids.uintType, ids.uintType, ids.uintType, ids.uintType});
    ids.initFunctionType = module.typeFunction(ids.voidType, {});
    for (uint32_t* var : {&ids.slotCount, &ids.firstRecord, &ids.countWord, &ids.statusWord}) {
        *var = privateCounter();
        module.addToInterface(*var);
    }
    ids.recordFunction = module.newId();
    ids.initFunction = module.newId();
    const std::vector<bool>& polled = state.volatileVariables;
    if (std::find(polled.begin(), polled.end(), true) == polled.end()) return;
    ids.pollFunction = module.newId();
    uint32_t privateVec4 = module.typePointer(StorageClass::Private, ids.uvec4Type);
    // Undefined until the first poll writes it: no poll compares with it before (pollEnd).
    ids.lastPoll = module.addGlobalVariable(privateVec4, StorageClass::Private);
    ids.pollEnd =
        module.addGlobalVariable(privateUint, StorageClass::Private, module.constUint(~0u));
    ids.repeatAt = privateCounter();
    ids.repeats = privateCounter();
    for (uint32_t var : {ids.lastPoll, ids.pollEnd, ids.repeatAt, ids.repeats})
        module.addToInterface(var);
}

namespace {

// init(), called first thing in the entry point: this invocation's flat index (workgroup-major,
// see trace/trace.h) turned into where its records, count and status live, kept in Private
// variables so each record costs only a few stores.
void buildInit(InstrumentState& state) {
    SpirvModule& module = state.module;
    const TraceObjectIds& ids = state.ids;
    SpirvBuilder b(module, module.newFunctions);
    b.beginFunction(ids.voidType, ids.initFunction, ids.initFunctionType);
    uint32_t perGroup = state.loadTraceWord(b, 2), nx = state.loadTraceWord(b, 3),
             ny = state.loadTraceWord(b, 4);
    uint32_t wid = b.load(module.typeVector(ids.uintType, 3), ids.workgroupId);
    uint32_t wx = b.extract(ids.uintType, wid, 0);
    uint32_t wy = b.extract(ids.uintType, wid, 1);
    uint32_t wz = b.extract(ids.uintType, wid, 2);
    uint32_t plane = b.mul(nx, ny);
    uint32_t g = b.add(wx, b.mul(wy, nx));
    g = b.add(g, b.mul(wz, plane));
    uint32_t local = b.load(ids.uintType, ids.localIndex);
    uint32_t inv = b.add(b.mul(g, perGroup), local);
    uint32_t slots = state.loadTraceWord(b, 1), recordsAt = state.loadTraceWord(b, 5),
             statusAt = state.loadTraceWord(b, 7);
    // recordsAt is a multiple of kTraceRecordWords (trace/trace.h): records count in uvec4s.
    uint32_t first = b.mul(inv, slots);
    uint32_t recordsStart = b.div(recordsAt, b.uint(kTraceRecordWords));
    b.store(ids.slotCount, slots);
    b.store(ids.firstRecord, b.add(recordsStart, first));
    b.store(ids.countWord, b.add(inv, b.uint(kTraceHeaderWords)));
    b.store(ids.statusWord, b.add(statusAt, inv));
    b.returnVoid();
    b.endFunction();
}

// A record into this invocation's slot `pos`, if it has one: `record()` makes its uvec4 there
// (or names one made before).
void writeRecord(const TraceObjectIds& ids, SpirvBuilder& b, uint32_t pos,
                 const std::function<uint32_t()>& record) {
    uint32_t u = ids.uintType;
    b.ifThen(b.less(pos, b.load(u, ids.slotCount)), [&] {
        uint32_t at = b.add(b.load(u, ids.firstRecord), pos);
        uint32_t slot = b.accessChain(ids.recordPointerType, ids.recordVariable, {b.uint(0), at});
        b.store(slot, record());
    });
}

// record(w0, index, value, extra): one record in this invocation's slots, if it has room;
// its count goes on either way (the host derives the dropped records from the counts).
void buildRecorder(InstrumentState& state) {
    SpirvModule& module = state.module;
    const TraceObjectIds& ids = state.ids;
    uint32_t u = ids.uintType;
    SpirvBuilder b(module, module.newFunctions);
    std::vector<uint32_t> p =
        b.beginFunction(ids.voidType, ids.recordFunction, ids.recordFunctionType, {u, u, u, u});
    uint32_t pos = b.load(u, ids.nextSlot);
    static_assert(kTraceRecordWords == 4, "a record is one uvec4");
    writeRecord(ids, b, pos, [&] { return b.construct(ids.uvec4Type, {p[0], p[1], p[2], p[3]}); });
    // The count goes on past the slots: the host learns how many records each thread wanted. It
    // reaches the trace buffer once, when the invocation returns (storeRecordCount): a store per
    // record cost lavapipe a quarter of a traced pipeline's build time.
    b.store(ids.nextSlot, b.add(pos, b.uint(1)));
    b.returnVoid();
    b.endFunction();
}

// poll(w0, index, value, extra): a record, unless it is the one the last poll wrote, right before
// it (no record between them): then a Repeat record after that one counts it (the first repeat
// writes it, the others count up in its slot and take no slot of their own). A look-back that
// waits for a held workgroup reads the same word thousands of times: as records, it would fill
// any room a loaded machine's timing cannot foresee.
void buildPoller(InstrumentState& state) {
    SpirvModule& module = state.module;
    const TraceObjectIds& ids = state.ids;
    uint32_t u = ids.uintType;
    SpirvBuilder b(module, module.newFunctions);
    std::vector<uint32_t> p =
        b.beginFunction(ids.voidType, ids.pollFunction, ids.recordFunctionType, {u, u, u, u});
    uint32_t pos = b.load(u, ids.nextSlot);
    uint32_t record = b.construct(ids.uvec4Type, {p[0], p[1], p[2], p[3]});
    uint32_t bvec4 = module.typeVector(ids.boolType, 4);
    uint32_t equal =
        b.value(spv::Op::OpIEqual, bvec4, {record, b.load(ids.uvec4Type, ids.lastPoll)});
    uint32_t same = b.logicalAnd(b.equal(pos, b.load(u, ids.pollEnd)),
                                 b.value(spv::Op::OpAll, ids.boolType, {equal}));
    uint32_t repeatWord = b.uint(packTraceWord0(TraceEventKind::Repeat, kTraceVariableNone, 0));
    auto repeatRecord = [&](uint32_t count) {
        return b.construct(ids.uvec4Type, {repeatWord, count, b.uint(0), b.uint(0)});
    };
    uint32_t next = b.add(pos, b.uint(1));
    b.ifElse(
        same,
        [&] {
            uint32_t at = b.load(u, ids.repeatAt);
            b.ifElse(
                b.equal(at, b.uint(0)),
                [&] {
                    writeRecord(ids, b, pos, [&] { return repeatRecord(b.uint(1)); });
                    b.store(ids.repeatAt, next);
                    b.store(ids.repeats, b.uint(1));
                    b.store(ids.nextSlot, next);
                    b.store(ids.pollEnd, next);
                },
                [&] {
                    uint32_t count = b.add(b.load(u, ids.repeats), b.uint(1));
                    b.store(ids.repeats, count);
                    writeRecord(ids, b, b.sub(at, b.uint(1)), [&] { return repeatRecord(count); });
                });
        },
        [&] {
            writeRecord(ids, b, pos, [&] { return record; });
            b.store(ids.nextSlot, next);
            b.store(ids.lastPoll, record);
            b.store(ids.pollEnd, next);
            b.store(ids.repeatAt, b.uint(0));
        });
    b.returnVoid();
    b.endFunction();
}

} // namespace

void storeRecordCount(InstrumentState& state, std::vector<SpirvInstruction>& out) {
    SpirvBuilder b(state.module, out);
    const TraceObjectIds& ids = state.ids;
    uint32_t count = b.load(ids.uintType, ids.nextSlot);
    uint32_t at = b.load(ids.uintType, ids.countWord);
    b.store(state.traceWord(b, at), count);
}

void buildTraceFunctions(InstrumentState& state) {
    buildInit(state);
    buildRecorder(state);
    if (state.ids.pollFunction) buildPoller(state);
}

} // namespace vkp
