// A mutable SPIR-V module for rewriting passes: instructions as plain words, new ids from the
// bound, and find-or-add helpers for the types and constants a pass needs (SPIR-V forbids
// duplicate non-aggregate types, so they are reused when the module already declares them).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"

namespace vkp {

struct SpvInst {
    uint32_t op = 0;
    std::vector<uint32_t> w; // operands, without the opcode word
};

class SpirvEditor {
  public:
    static Result<SpirvEditor> parse(std::span<const uint32_t> words);

    // The module's sections, split where passes insert.
    std::vector<SpvInst> preamble;    // capabilities .. execution modes, debug, annotations
    std::vector<SpvInst> globals;     // types, constants, global variables
    std::vector<SpvInst> functions;   // every function, in order

    std::vector<SpvInst> newAnnotations; // appended after the existing annotations
    std::vector<SpvInst> newGlobals;     // appended after the existing globals
    std::vector<SpvInst> newFunctions;   // appended after the existing functions

    uint32_t newId() { return m_bound++; }
    std::vector<uint32_t> assemble() const;

    // Find-or-add.
    uint32_t typeVoid();
    uint32_t typeBool();
    uint32_t typeUint();
    uint32_t typeVector(uint32_t component, uint32_t count);
    uint32_t typePointer(uint32_t storageClass, uint32_t pointee);
    uint32_t typeFunction(uint32_t result, std::vector<uint32_t> params);
    uint32_t constUint(uint32_t value);
    uint32_t undef(uint32_t type);

    // Facts about existing ids.
    const SpvInst* def(uint32_t id) const;            // the defining instruction (globals and functions)
    uint32_t typeOf(uint32_t id) const;               // result type of a value id, 0 if none
    std::vector<uint32_t> decorations(uint32_t id, uint32_t decoration) const; // literal operands
    bool hasDecoration(uint32_t id, uint32_t decoration) const;
    std::string name(uint32_t id) const;
    std::string memberName(uint32_t id, uint32_t member) const;
    void noteDefinition(const SpvInst& inst);         // for instructions a pass creates

  private:
    uint32_t m_bound = 0;
    uint32_t m_version = 0, m_generator = 0;
    std::map<uint32_t, SpvInst> m_defs;   // result id -> instruction (copy)
    std::map<uint32_t, uint32_t> m_types; // value id -> its type
    uint32_t findOrAddType(uint32_t op, std::vector<uint32_t> operands);
};

} // namespace vkp
