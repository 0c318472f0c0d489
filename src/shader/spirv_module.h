// A minimal read-only view of a SPIR-V module: instructions as word spans, plus the id tables
// that reflection needs (names, decorations, types, constants).
#pragma once

#include <cstdint>
#include <array>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"

namespace vkp {

struct SpirvInstruction {
    uint32_t opcode = 0;
    std::span<const uint32_t> operands; // the words after the opcode word
};

class SpirvModule {
  public:
    // Splits words into instructions; an error for a bad header or a truncated instruction.
    static Result<SpirvModule> parse(std::span<const uint32_t> words);

    const std::vector<SpirvInstruction>& instructions() const { return m_instructions; }
    std::string name(uint32_t id) const;                       // OpName, or ""
    std::string memberName(uint32_t structId, uint32_t member) const;
    // Decoration -> literal (0 when the decoration has none); empty when undecorated.
    std::optional<uint32_t> decoration(uint32_t id, uint32_t decoration) const;
    const SpirvInstruction* definition(uint32_t id) const;     // the instruction whose result is id
    // A struct member's decoration (e.g. Offset) -> its literal; empty when undecorated.
    std::optional<uint32_t> memberDecoration(uint32_t structId, uint32_t member, uint32_t decoration) const;

  private:
    std::vector<uint32_t> m_words;
    std::vector<SpirvInstruction> m_instructions;
    std::map<uint32_t, std::string> m_names;
    std::map<std::pair<uint32_t, uint32_t>, std::string> m_memberNames;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_decorations;
    std::map<std::array<uint32_t, 3>, uint32_t> m_memberDecorations; // struct, member, decoration
    std::map<uint32_t, size_t> m_definitions;

    void index();
};

// Decodes a nul-terminated literal string starting at operands[first].
std::string spirvString(std::span<const uint32_t> operands, size_t first);

} // namespace vkp
