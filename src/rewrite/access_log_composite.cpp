// The access log of whole composites: a load, store or copy of an array, struct, vector or matrix
// held in a traced variable is recorded as the scalar accesses it is, one record per leaf, with
// the flat index the host gives that leaf (flatIndex's flattening) and the leaf's value word.
//
// The user's code gets one call per access: recorder(value, base index, w0), where w0 carries the
// kind, variable and line. Each composite type has one recorder function, appended to the module:
// it takes the value apart with OpCompositeExtract, or, for an array whose length is a
// specialization constant (or too long to unroll), copies it to a Function variable and loops.
// Nested composites call their own type's recorder, so no user block is ever split.
#include "rewrite/access_log_rewriter.h"

namespace vkp {
namespace {

using Op = spv::Op;

// Arrays of at most this many leaves are unrolled in their recorder; longer ones loop.
constexpr uint64_t kUnrollLeaves = 64;

} // namespace

bool AccessLogRewriter::isComposite(uint32_t type) const {
    const SpirvInstruction* t = m_state.module.definition(type);
    if (!t) return false;
    Op op = t->opcode();
    return op == Op::OpTypeVector || op == Op::OpTypeMatrix || op == Op::OpTypeArray ||
           op == Op::OpTypeStruct;
}

// Leaves of one value of `type` when every length is a literal; empty when one is a
// specialization constant (or the type holds a runtime array).
std::optional<uint64_t> AccessLogRewriter::constantLeafCount(uint32_t type) const {
    const SpirvModule& module = m_state.module;
    const SpirvInstruction* t = module.definition(type);
    if (!t) return 1;
    switch (t->opcode()) {
    case Op::OpTypeVector:
        return t->operand(1);
    case Op::OpTypeMatrix: {
        auto column = constantLeafCount(t->operand(0));
        if (!column) return std::nullopt;
        return *column * t->operand(1);
    }
    case Op::OpTypeArray: {
        const SpirvInstruction* length = module.definition(t->operand(1));
        auto element = constantLeafCount(t->operand(0));
        if (!element || !length || length->opcode() != Op::OpConstant) return std::nullopt;
        return *element * length->operand(0);
    }
    case Op::OpTypeStruct: {
        uint64_t sum = 0;
        for (uint32_t member : t->operands()) {
            auto leaves = constantLeafCount(member);
            if (!leaves) return std::nullopt;
            sum += *leaves;
        }
        return sum;
    }
    case Op::OpTypeRuntimeArray:
        return std::nullopt;
    default:
        return 1;
    }
}

// How far apart the flat indices of consecutive elements of type `type` lie: the product of its
// flatFactors, folded to one constant when they all are constants.
uint32_t AccessLogRewriter::leafStride(SpirvBuilder& b, uint32_t type) {
    SpirvModule& module = m_state.module;
    uint64_t literal = 1;
    uint32_t product = 0;
    for (uint32_t factor : flatFactors(type)) {
        const SpirvInstruction* k = module.definition(factor);
        if (k && k->opcode() == Op::OpConstant) {
            literal *= k->operand(0);
            continue;
        }
        uint32_t term = b.asUint(factor);
        product = product ? b.mul(product, term) : term;
    }
    uint32_t constant = b.uint(uint32_t(literal));
    if (!product) return constant;
    return literal == 1 ? product : b.mul(product, constant);
}

void AccessLogRewriter::recordLeaves(SpirvBuilder& b, uint32_t w0, uint32_t value, uint32_t type,
                                     uint32_t base) {
    b.call(m_state.ids.voidType, leafRecorder(type), {value, base, w0});
    ++m_state.accessSites;
}

// One leaf: a scalar gets its record, a composite goes to its own type's recorder.
void AccessLogRewriter::recordLeaf(SpirvBuilder& b, uint32_t w0, uint32_t value, uint32_t type,
                                   uint32_t index, uint32_t extra) {
    if (isComposite(type)) {
        b.call(m_state.ids.voidType, leafRecorder(type), {value, index, w0});
        return;
    }
    uint32_t word = valueWord(b, value, type);
    b.call(m_state.ids.voidType, m_state.ids.recordFunction, {w0, index, word, b.uint(extra)});
}

// recorder(value, base, w0) for one composite type, built the first time that type is met.
uint32_t AccessLogRewriter::leafRecorder(uint32_t type) {
    if (auto it = m_leafRecorders.find(type); it != m_leafRecorders.end()) return it->second;
    SpirvModule& module = m_state.module;
    const TraceObjectIds& ids = m_state.ids;
    uint32_t function = module.newId();
    m_leafRecorders[type] = function;
    uint32_t functionType = module.typeFunction(ids.voidType, {type, ids.uintType, ids.uintType});
    std::vector<SpirvInstruction> f;
    SpirvBuilder b(module, f);
    std::vector<uint32_t> p =
        b.beginFunction(ids.voidType, function, functionType, {type, ids.uintType, ids.uintType});
    uint32_t value = p[0], base = p[1], w0 = p[2];
    uint32_t entry = b.currentBlock();
    const SpirvInstruction* t = module.definition(type);
    auto leaves = constantLeafCount(type);
    // An array with an explicit layout (a buffer's) is unrolled whatever its length: Vulkan keeps
    // laid-out types out of Function variables, and only Workgroup arrays are sized by constants.
    bool laidOut = module.decoration(type, spv::Decoration::ArrayStride).has_value();
    if (t->opcode() == Op::OpTypeArray && (!leaves || (*leaves > kUnrollLeaves && !laidOut))) {
        // OpCompositeExtract takes literal indices only: a loop indexes a copy in memory.
        uint32_t copy = b.variable(module.typePointer(spv::StorageClass::Function, type));
        b.store(copy, value);
        recordArrayInLoop(b, entry, w0, copy, type, base);
    } else {
        recordChildren(b, w0, value, type, base);
    }
    b.returnVoid();
    b.endFunction();
    module.newFunctions.insert(module.newFunctions.end(), f.begin(), f.end());
    return function;
}

// The children of a composite of literal size, each at base + its offset. A struct's members add
// nothing to the index (as in flatIndex): every leaf of a struct member that is no array, vector
// or matrix has the struct's own index, so `s = S(a, b)` records a and b both at s's index.
void AccessLogRewriter::recordChildren(SpirvBuilder& b, uint32_t w0, uint32_t value, uint32_t type,
                                       uint32_t base) {
    SpirvModule& module = m_state.module;
    const SpirvInstruction* t = module.definition(type);
    bool isStruct = t->opcode() == Op::OpTypeStruct;
    std::vector<uint32_t> children; // the type of each child
    if (isStruct) {
        auto members = t->operands();
        children.assign(members.begin(), members.end());
    } else {
        // Vector and matrix: component or column type, count; array: element type, length.
        uint32_t count = t->operand(1);
        if (t->opcode() == Op::OpTypeArray) count = module.definition(count)->operand(0);
        children.assign(count, t->operand(0));
    }
    uint32_t stride = isStruct ? 0 : leafStride(b, children.empty() ? 0 : children[0]);
    // A vector's scalars say which of how many they are: one instruction moved them together.
    bool vector = t->opcode() == Op::OpTypeVector;
    uint32_t width = static_cast<uint32_t>(children.size());
    for (uint32_t k = 0; k < children.size(); ++k) {
        uint32_t child = b.extract(children[k], value, k);
        uint32_t index = base;
        if (!isStruct && k > 0) index = b.add(base, b.mul(b.uint(k), stride));
        recordLeaf(b, w0, child, children[k], index, vector ? packVectorPart(width, k) : 0);
    }
}

// for (i = 0; i < length; ++i) record element i of the array in `variable`, at base + i * stride.
void AccessLogRewriter::recordArrayInLoop(SpirvBuilder& b, uint32_t fromLabel, uint32_t w0,
                                          uint32_t variable, uint32_t type, uint32_t base) {
    SpirvModule& module = m_state.module;
    uint32_t u = m_state.ids.uintType;
    const SpirvInstruction* t = module.definition(type);
    uint32_t element = t->operand(0);
    uint32_t length = b.asUint(t->operand(1));
    uint32_t stride = leafStride(b, element);
    SpirvBuilder::Loop loop = b.newLoop();
    uint32_t i = module.newId(), iNext = module.newId();
    auto header = [&] {
        b.define(i, Op::OpPhi, u, {b.uint(0), fromLabel, iNext, loop.continueTarget});
        return b.less(i, length);
    };
    auto body = [&] {
        uint32_t pointer = module.typePointer(spv::StorageClass::Function, element);
        uint32_t value = b.load(element, b.accessChain(pointer, variable, {i}));
        recordLeaf(b, w0, value, element, b.add(base, b.mul(i, stride)));
        return 0u;
    };
    b.loop(loop, header, body, [&] { b.define(iNext, Op::OpIAdd, u, {i, b.uint(1)}); });
}

} // namespace vkp
