// In-process GLSL -> SPIR-V compilation with shaderc, with structured diagnostics.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/diagnostic.h"

namespace vkp {

struct CompileOptions {
    bool debugInfo = false; // OpLine/OpName for tracing; off for plain runs
    bool optimize = false;  // -O strips names; keep off so messages can name variables
};

struct CompileResult {
    std::vector<uint32_t> spirv;          // empty when compilation failed
    std::vector<Diagnostic> diagnostics;  // errors and warnings on the user's own lines

    bool ok() const { return !spirv.empty(); }
};

// Compiles Vulkan GLSL compute shaders (target: Vulkan 1.2, SPIR-V 1.5). Thread-compatible: one
// Compiler per thread, or external locking.
class Compiler {
  public:
    Compiler();
    ~Compiler();
    Compiler(const Compiler&) = delete;
    Compiler& operator=(const Compiler&) = delete;

    CompileResult compile(const std::string& source, const std::string& fileName,
                          const CompileOptions& options = {}) const;

    // glslang builds its tables on the first compile (100-300 ms): pay it early, off the hot path.
    void warmUp() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// Parses shaderc's "file:line: error: 'token' : message" text into diagnostics; the column is
// found by locating the quoted token on that source line.
std::vector<Diagnostic> parseCompilerMessages(const std::string& text, const std::string& source,
                                              const std::string& fileName);

} // namespace vkp
