// One SPIR-V module, for reading (reflection, checks) and rewriting (instrumentation): the
// instructions in the sections rewriters insert into, named operand accessors on each instruction,
// the id tables (names, decorations, definitions, types), and find-or-add helpers for the types
// and constants a rewriter needs (SPIR-V forbids duplicate non-aggregate types, so they are reused
// when the module already declares them).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "base/result.h"

namespace vkp {

// An atomic operation on memory (OpAtomicLoad .. OpAtomicXor, and the float add/min/max).
inline bool isAtomicOp(spv::Op op) {
    return (op >= spv::Op::OpAtomicLoad && op <= spv::Op::OpAtomicXor) ||
           op == spv::Op::OpAtomicFAddEXT || op == spv::Op::OpAtomicFMinEXT ||
           op == spv::Op::OpAtomicFMaxEXT;
}

// One instruction: its opcode and the words after the opcode word, read through accessors that
// know where the result type and result id are; operand(k) counts from the first word after them.
class SpirvInstruction {
  public:
    SpirvInstruction() = default;
    SpirvInstruction(spv::Op opcode, std::vector<uint32_t> words);

    spv::Op opcode() const { return m_opcode; }
    uint32_t resultType() const { return m_hasResultType ? word(0) : 0; }                 // 0: none
    uint32_t resultId() const { return m_hasResult ? word(m_hasResultType ? 1 : 0) : 0; } // 0: none
    size_t operandCount() const {
        return m_words.size() > firstOperand() ? m_words.size() - firstOperand() : 0;
    }
    uint32_t operand(size_t k) const { return word(firstOperand() + k); } // 0 past the end
    std::span<const uint32_t> operands(size_t from = 0) const;            // operand(from) onwards
    // The nul-terminated literal string starting at operand(k), and the operand after it.
    std::string literalString(size_t k) const;
    size_t afterLiteralString(size_t k) const;

    void setOperand(size_t k, uint32_t value) { m_words.at(firstOperand() + k) = value; }
    void appendOperand(uint32_t value) { m_words.push_back(value); }
    void keepOperands(size_t count) { m_words.resize(firstOperand() + count); }

    std::span<const uint32_t> words() const { return m_words; } // everything after the opcode word

  private:
    spv::Op m_opcode = spv::Op::OpNop;
    bool m_hasResult = false, m_hasResultType = false;
    std::vector<uint32_t> m_words;

    size_t firstOperand() const { return size_t(m_hasResult) + size_t(m_hasResultType); }
    uint32_t word(size_t i) const { return i < m_words.size() ? m_words[i] : 0; }
};

class SpirvModule {
  public:
    // Splits words into instructions; an error for a bad header or a truncated instruction.
    static Result<SpirvModule> parse(std::span<const uint32_t> words);

    // The module's sections, split where rewriters insert.
    std::vector<SpirvInstruction> preamble;  // capabilities .. execution modes, debug, annotations
    std::vector<SpirvInstruction> globals;   // types, constants, global variables
    std::vector<SpirvInstruction> functions; // every function, in order

    std::vector<SpirvInstruction> newAnnotations; // appended after the existing annotations
    std::vector<SpirvInstruction> newGlobals;     // appended after the existing globals
    std::vector<SpirvInstruction> newFunctions;   // appended after the existing functions

    std::vector<SpirvInstruction> instructions() const; // every instruction, in module order
    std::vector<uint32_t> assemble() const;
    uint32_t newId() { return m_bound++; }

    // Lookups of the parsed module (annotations a rewriter adds are not indexed).
    const SpirvInstruction* definition(uint32_t id) const; // the instruction whose result is id
    uint32_t typeOf(uint32_t id) const;                    // result type of a value id, 0 if none
    std::string name(uint32_t id) const;                   // OpName, or ""
    std::string memberName(uint32_t structId, uint32_t member) const;
    std::string stringLiteral(uint32_t stringId) const; // OpString, or ""
    // Decoration -> its first literal (0 when it has none); empty when undecorated.
    std::optional<uint32_t> decoration(uint32_t id, spv::Decoration decoration) const;
    std::optional<uint32_t> memberDecoration(uint32_t structId, uint32_t member,
                                             spv::Decoration decoration) const;
    SpirvInstruction* entryPoint(); // the first OpEntryPoint, or null
    // The scope of an atomic that every invocation of the dispatch sees: Device, or QueueFamily
    // in a module of the Vulkan memory model (glslang's for cooperative matrices), where Device
    // needs a capability of its own (VulkanMemoryModelDeviceScope) and QueueFamily is the same
    // for one dispatch.
    spv::Scope dispatchScope() const;
    void addToInterface(uint32_t variable); // lists a global in the entry point's interface
    void requireCapability(spv::Capability capability); // declares it unless the module does

    // Find-or-add.
    uint32_t typeVoid();
    uint32_t typeBool();
    uint32_t typeUint();
    uint32_t typeVector(uint32_t component, uint32_t count);
    uint32_t typePointer(spv::StorageClass storage, uint32_t pointee);
    uint32_t typeFunction(uint32_t result, std::vector<uint32_t> params);
    uint32_t constUint(uint32_t value);
    uint32_t constTrue();
    uint32_t constFalse();
    uint32_t undef(uint32_t type);

    // Additions: a new global variable; a new value instruction appended to `out` (its id).
    uint32_t addGlobalVariable(uint32_t pointerType, spv::StorageClass storage,
                               std::optional<uint32_t> init = {});
    // The Input variable of a built-in: the kernel's own, or a new one in the entry point's
    // interface (pointerType: an Input pointer to the built-in's type).
    uint32_t builtinVariable(spv::BuiltIn builtin, uint32_t pointerType);
    uint32_t emit(std::vector<SpirvInstruction>& out, spv::Op opcode, uint32_t type,
                  std::vector<uint32_t> operands);
    void noteDefinition(const SpirvInstruction& inst); // for instructions a rewriter creates

  private:
    uint32_t m_bound = 0;
    uint32_t m_version = 0, m_generator = 0;
    std::map<uint32_t, SpirvInstruction> m_definitions; // result id -> instruction (copy)
    std::map<uint32_t, std::string> m_names;
    std::map<std::pair<uint32_t, uint32_t>, std::string> m_memberNames;
    std::map<uint32_t, std::string> m_strings;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_decorations;
    std::map<std::array<uint32_t, 3>, uint32_t> m_memberDecorations; // struct, member, decoration

    void index(const SpirvInstruction& inst);
    uint32_t findOrAddType(spv::Op opcode, std::vector<uint32_t> operands);
};

} // namespace vkp
