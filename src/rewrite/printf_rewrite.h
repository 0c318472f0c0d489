// debugPrintfEXT (GL_EXT_debug_printf) in a kernel's SPIR-V. glslang emits each call as
// `OpExtInst %void %set 1 %format args...` of the NonSemantic.DebugPrintf set
// (SPV_KHR_non_semantic_info), the format an OpString. A driver need not print them (lavapipe
// does not), so an untraced run drops them, and the traced variant (instrument.h) turns each into
// trace records (trace/trace.h) that the host formats (trace/debug_printf.h).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "shader/spirv_builder.h"
#include "shader/spirv_module.h"

namespace vkp {

uint32_t debugPrintfSet(const SpirvModule& module); // the set's OpExtInstImport id, 0: none
bool isDebugPrintf(const SpirvInstruction& inst, uint32_t set); // a debugPrintfEXT call of that set
// Removes the set's import and, when no other NonSemantic set is left, the extension.
void dropDebugPrintfImport(SpirvModule& module, uint32_t set);

// The kernel without its debugPrintfEXT calls (untraced runs on every device); the words
// unchanged when it has none. An error only for words that are not a SPIR-V module.
Result<std::vector<uint32_t>> stripDebugPrintf(std::span<const uint32_t> spirv);

// What the printf records are written with: ids the instrumentation rewriters declared.
struct PrintfTarget {
    uint32_t uintType = 0, boolType = 0, voidType = 0;
    uint32_t recordFn = 0;                  // record(w0, index, value, extra)
    uint32_t traceVar = 0, dataPtrType = 0; // the trace buffer, a pointer to one of its words
    uint32_t posVar = 0, slotsVar = 0,
             statusVar = 0;             // Private: next slot, slots, status word index
    uint32_t linesVar = 0, usedVar = 0; // Private, zero at start: lines recorded, their records
};

// Replaces debugPrintf calls by calls of appended writer functions, one per argument-word count:
// the learner's blocks get one OpFunctionCall each, as for accesses.
class PrintfRecorder {
  public:
    PrintfRecorder(SpirvModule& module, const PrintfTarget& target)
        : m_module(module), m_target(target) {}

    // The call's arguments as words (emitted into `out`) and the writer's call.
    void rewrite(const SpirvInstruction& call, uint32_t line, std::vector<SpirvInstruction>& out);
    const std::vector<std::string>& formats() const { return m_formats; }
    uint32_t calls() const { return m_calls; }

  private:
    uint32_t formatIndex(uint32_t stringId);
    void argWords(SpirvBuilder& b, uint32_t value, std::vector<uint32_t>& words);
    void scalarWords(SpirvBuilder& b, uint32_t value, uint32_t type, std::vector<uint32_t>& words);
    uint32_t writerFor(uint32_t words);
    void buildWriter(uint32_t fn, uint32_t words);
    void countDropped(SpirvBuilder& b);

    SpirvModule& m_module;
    PrintfTarget m_target;
    std::vector<std::string> m_formats;
    std::map<uint32_t, uint32_t> m_formatIndex; // OpString id -> index in m_formats
    std::map<uint32_t, uint32_t> m_writers;     // argument words -> writer function
    uint32_t m_calls = 0;
};

} // namespace vkp
