// For the shader tests: a GLSL kernel compiled with debug info (OpLine, names), as the
// instrumentation reads it, failing the test where it does not compile.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "shader/compiler.h"

namespace vkp::test {

inline std::vector<uint32_t> compileDebug(const std::string& src) {
    CompileResult r = Compiler().compile(src, "k.comp", {/*debugInfo=*/true});
    EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].str());
    return r.spirv;
}

} // namespace vkp::test
