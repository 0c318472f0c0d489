// Line recovery: the source line of each instruction as the rewriters rewrite a function, from
// OpLine, and for blocks that have none, from the instruction that first named the block. A line
// before the function's own is a declaration's, not code of the function: glslang marks the first
// access to a shared array whose length is a specialization constant with the array's line.
#pragma once

#include <cstdint>
#include <map>

#include "shader/spirv_module.h"

namespace vkp {

class LineRecovery {
  public:
    // declared: the line of the OpLine before OpFunction when it is not in the function's
    // instructions (the first function's is among the module's globals); 0: unknown.
    void beginFunction(uint32_t declared = 0);
    // Reads one instruction of the function, in order; line() is then its line.
    void observe(const SpirvInstruction& inst);
    uint32_t line() const { return m_line; } // 0: unknown

  private:
    uint32_t m_line = 0;
    uint32_t m_first = 0; // the function's first line: where it is declared, or its first OpLine
    std::map<uint32_t, uint32_t> m_lineOfLabel; // block label -> the line of its first mention
};

} // namespace vkp
