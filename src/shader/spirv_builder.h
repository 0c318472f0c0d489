// Writes new SPIR-V code into a function's instructions for the rewriters (rewrite/instrument.h and
// the device adaptations): typed instructions on 32-bit unsigned words (loads, stores, access
// chains, arithmetic, comparisons, calls, atomics), functions and their blocks, and structured
// control flow (if, if/else, loops) whose merge instructions and labels only this builder writes,
// so every rewritten function keeps SPIR-V's structured form. Types and constants come from the
// module's find-or-add helpers (shader/spirv_module.h).
//
// Each call appends to one list of instructions (a function being rewritten, or the module's new
// functions) and takes its ids from the module. Operands that are themselves emitted are best
// named first: C++ leaves the order of a call's arguments open, and the ids and instruction
// order must not depend on the compiler.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <vector>

#include "shader/spirv_module.h"

namespace vkp {

class SpirvBuilder {
  public:
    SpirvBuilder(SpirvModule& module, std::vector<SpirvInstruction>& out)
        : m_module(module), m_out(out) {}

    SpirvModule& module() const { return m_module; }
    std::vector<SpirvInstruction>& out() const { return m_out; }

    // Types and constants, found or added.
    uint32_t uintType() const { return m_module.typeUint(); }
    uint32_t boolType() const { return m_module.typeBool(); }
    uint32_t voidType() const { return m_module.typeVoid(); }
    uint32_t uint(uint32_t value) const { return m_module.constUint(value); }

    // Any instruction with a result (its new id) or without one; control flow goes through the
    // block and structure functions below instead.
    uint32_t value(spv::Op opcode, uint32_t type, std::vector<uint32_t> operands);
    void instruction(spv::Op opcode, std::vector<uint32_t> operands);
    // A value whose id was taken before it is defined (a phi's operand from a later block).
    void define(uint32_t id, spv::Op opcode, uint32_t type, std::vector<uint32_t> operands);

    // Memory.
    uint32_t variable(uint32_t pointerType); // a Function variable, in a function's first block
    uint32_t load(uint32_t type, uint32_t pointer);
    void store(uint32_t pointer, uint32_t value);
    uint32_t accessChain(uint32_t pointerType, uint32_t base, std::vector<uint32_t> indices);
    // Atomics on a uint word: OpAtomicLoad, OpAtomicIAdd, OpAtomicExchange... with the value
    // operands after scope and semantics (constants' ids made here).
    uint32_t atomic(spv::Op opcode, uint32_t pointer, spv::Scope scope, uint32_t semantics,
                    std::vector<uint32_t> values = {});

    // Arithmetic on uints, and comparisons of uints (results are bools).
    uint32_t add(uint32_t a, uint32_t b) { return uintOp(spv::Op::OpIAdd, a, b); }
    uint32_t sub(uint32_t a, uint32_t b) { return uintOp(spv::Op::OpISub, a, b); }
    uint32_t mul(uint32_t a, uint32_t b) { return uintOp(spv::Op::OpIMul, a, b); }
    uint32_t div(uint32_t a, uint32_t b) { return uintOp(spv::Op::OpUDiv, a, b); }
    uint32_t mod(uint32_t a, uint32_t b) { return uintOp(spv::Op::OpUMod, a, b); }
    uint32_t bitAnd(uint32_t a, uint32_t b) { return uintOp(spv::Op::OpBitwiseAnd, a, b); }
    uint32_t bitOr(uint32_t a, uint32_t b) { return uintOp(spv::Op::OpBitwiseOr, a, b); }
    uint32_t bitXor(uint32_t a, uint32_t b) { return uintOp(spv::Op::OpBitwiseXor, a, b); }
    uint32_t shiftLeft(uint32_t a, uint32_t b) { return uintOp(spv::Op::OpShiftLeftLogical, a, b); }
    uint32_t shiftRight(uint32_t a, uint32_t b) {
        return uintOp(spv::Op::OpShiftRightLogical, a, b);
    }
    uint32_t equal(uint32_t a, uint32_t b) { return boolOp(spv::Op::OpIEqual, a, b); }
    uint32_t notEqual(uint32_t a, uint32_t b) { return boolOp(spv::Op::OpINotEqual, a, b); }
    uint32_t less(uint32_t a, uint32_t b) { return boolOp(spv::Op::OpULessThan, a, b); }
    uint32_t lessEqual(uint32_t a, uint32_t b) { return boolOp(spv::Op::OpULessThanEqual, a, b); }
    uint32_t greater(uint32_t a, uint32_t b) { return boolOp(spv::Op::OpUGreaterThan, a, b); }
    uint32_t greaterEqual(uint32_t a, uint32_t b) {
        return boolOp(spv::Op::OpUGreaterThanEqual, a, b);
    }
    // Logic on bools.
    uint32_t logicalAnd(uint32_t a, uint32_t b) { return boolOp(spv::Op::OpLogicalAnd, a, b); }
    uint32_t logicalOr(uint32_t a, uint32_t b) { return boolOp(spv::Op::OpLogicalOr, a, b); }
    uint32_t logicalNotEqual(uint32_t a, uint32_t b) {
        return boolOp(spv::Op::OpLogicalNotEqual, a, b);
    }
    uint32_t logicalNot(uint32_t a) { return value(spv::Op::OpLogicalNot, boolType(), {a}); }
    // Values of any type.
    uint32_t select(uint32_t type, uint32_t condition, uint32_t ifTrue, uint32_t ifFalse) {
        return value(spv::Op::OpSelect, type, {condition, ifTrue, ifFalse});
    }
    uint32_t bitcast(uint32_t type, uint32_t v) { return value(spv::Op::OpBitcast, type, {v}); }
    // An integer value as a 32-bit uint: itself, a bitcast of an int, a conversion of another
    // width; 0 for no value (id 0) or one that is no integer.
    uint32_t asUint(uint32_t id);
    uint32_t extract(uint32_t type, uint32_t composite, uint32_t index) {
        return value(spv::Op::OpCompositeExtract, type, {composite, index});
    }
    uint32_t construct(uint32_t type, std::vector<uint32_t> parts) {
        return value(spv::Op::OpCompositeConstruct, type, std::move(parts));
    }
    uint32_t call(uint32_t resultType, uint32_t function, std::vector<uint32_t> arguments);

    // Functions and blocks. beginFunction writes OpFunction, a parameter of each type (their ids
    // returned) and the first block's label; endFunction writes OpFunctionEnd.
    std::vector<uint32_t> beginFunction(uint32_t resultType, uint32_t function,
                                        uint32_t functionType,
                                        const std::vector<uint32_t>& parameterTypes = {});
    void endFunction() { instruction(spv::Op::OpFunctionEnd, {}); }
    uint32_t label();        // a new block, its label's id
    void label(uint32_t id); // the block of a label named before
    void branch(uint32_t target) { instruction(spv::Op::OpBranch, {target}); }
    // A conditional branch whose merge is written already: a loop's back-edge or exit.
    void branchConditional(uint32_t condition, uint32_t onTrue, uint32_t onFalse) {
        instruction(spv::Op::OpBranchConditional, {condition, onTrue, onFalse});
    }
    void returnVoid() { instruction(spv::Op::OpReturn, {}); }
    void returnValue(uint32_t v) { instruction(spv::Op::OpReturnValue, {v}); }
    bool blockEnded() const;       // the last instruction ends a block (a branch, a return...)
    uint32_t currentBlock() const; // the label of the block being written, 0 before the first

    // Structured selections. The body runs in the new block; unless it ended that block itself
    // (a return), the block branches to the merge, where the code goes on.
    using Body = std::function<void()>;
    void ifThen(uint32_t condition, const Body& then) { oneSided(condition, true, then); }
    // `then` runs when the condition is false: nested unless() calls are the steps of a function
    // that stops at the first condition that holds, without an early return.
    void unless(uint32_t condition, const Body& then) { oneSided(condition, false, then); }
    void ifElse(uint32_t condition, const Body& then, const Body& otherwise);

    // A structured loop, entered from the current block:
    //   header: `header()` may emit phis and a test; it returns the condition to run the body
    //           (0: always);
    //   body:   `body()` returns a condition to leave the loop at its end (0: never);
    //   continue target: `next()`, then back to the header; after it, the merge block.
    // The labels are named first, in this order, so that phis can name the blocks.
    struct Loop {
        uint32_t header = 0, body = 0, continueTarget = 0, merge = 0;
    };
    Loop newLoop();
    void loop(const Loop& blocks, const std::function<uint32_t()>& header,
              const std::function<uint32_t()>& body, const Body& next = {});

  private:
    uint32_t uintOp(spv::Op opcode, uint32_t a, uint32_t b) {
        return value(opcode, uintType(), {a, b});
    }
    uint32_t boolOp(spv::Op opcode, uint32_t a, uint32_t b) {
        return value(opcode, boolType(), {a, b});
    }
    void selection(uint32_t condition, uint32_t onTrue, uint32_t onFalse, uint32_t merge);
    void oneSided(uint32_t condition, bool when, const Body& then);

    SpirvModule& m_module;
    std::vector<SpirvInstruction>& m_out;
};

// After a rewrite split blocks of `function`: each phi that names a split block as its parent
// names the label that block now ends under instead (`endsIn`: label -> last label), but for the
// phis in `own` (the rewrite's, whose parents are right).
void reparentPhis(std::span<SpirvInstruction> function, const std::map<uint32_t, uint32_t>& endsIn,
                  const std::set<uint32_t>& own);

} // namespace vkp
