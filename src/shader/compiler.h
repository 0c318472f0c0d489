// In-process GLSL -> SPIR-V compilation with shaderc, with structured diagnostics.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "base/result.h"

namespace vkp {

struct CompileOptions {
    bool debugInfo = false; // OpLine/OpName for tracing; off for plain runs
    bool optimize = false;  // -O strips names; keep off so messages can name variables
};

struct CompileResult {
    std::vector<uint32_t> spirv;         // empty when compilation failed
    std::vector<Diagnostic> diagnostics; // errors and warnings on the user's own lines
    bool compilerCrashed = false; // the compiler crashed or hung on this text (an Error says so)

    bool ok() const { return !spirv.empty(); }
};

// Compiles Vulkan GLSL compute shaders (target: Vulkan 1.2, SPIR-V 1.5) and validates SPIR-V.
// glslang and SPIRV-Tools never run in the caller's process: they run in a helper process of the
// Compiler's own (base/helper_process.h), kept warm between calls, so a kernel that crashes them
// or overflows their stack costs a restart of the helper and is an Error on the kernel, never a
// crash of the app or the CLI. Thread-safe (calls are served one at a time).
class Compiler {
  public:
    Compiler();
    ~Compiler();
    Compiler(const Compiler&) = delete;
    Compiler& operator=(const Compiler&) = delete;

    CompileResult compile(const std::string& source, const std::string& fileName,
                          const CompileOptions& options = {}) const;

    // SPIRV-Tools' validator on a module (an instrumented kernel), in the helper process too.
    Status validate(std::span<const uint32_t> spirv) const;

    // glslang builds its tables on the first compile (100-300 ms): pay it early, off the hot path.
    void warmUp() const;

    int helperPid() const; // the helper process, -1 before the first call and after a crash
    int restarts() const;  // helper processes started after the first

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// How long a compile or a validation may take before the helper is stopped: 60 s, or
// VKPUZZLES_COMPILE_TIMEOUT seconds (1 to 3600).
uint64_t compileTimeoutMs();

// The Error for a kernel the compiler crashed or hung on (`how`: how its helper ended): where the
// longest expression is, when one stands out, since a deeply nested expression is the usual cause.
Diagnostic compilerCrashDiagnostic(const std::string& source, const std::string& fileName,
                                   const Error& how);

// Parses shaderc's "file:line: error: 'token' : message" text into diagnostics; the column is
// found by locating the quoted token on that source line.
std::vector<Diagnostic> parseCompilerMessages(const std::string& text, const std::string& source,
                                              const std::string& fileName);

} // namespace vkp
