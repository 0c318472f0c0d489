// Line recovery: the source line of each instruction as the rewriters rewrite a function, from
// OpLine, and for blocks that have none, from the instruction that first named the block.
#pragma once

#include <cstdint>
#include <map>

#include "shader/spirv_module.h"

namespace vkp {

class LineRecovery {
  public:
    void beginFunction();
    // Reads one instruction of the function, in order; line() is then its line.
    void observe(const SpirvInstruction& inst);
    uint32_t line() const { return m_line; } // 0: unknown

  private:
    uint32_t m_line = 0;
    std::map<uint32_t, uint32_t> m_lineOfLabel; // block label -> the line of its first mention
};

} // namespace vkp
