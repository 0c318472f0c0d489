// The official solutions' kernels of every puzzle that runs on every device, compiled (no debug
// information) and reflected: what the "every official kernel rewrites to valid SPIR-V" tests walk.
// A kernel that cannot be read, compiled or reflected is a test failure, named by its path.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/text_file.h"
#include "puzzle/puzzle_loader.h"
#include "shader/compiler.h"
#include "shader/reflect.h"
#include "support/engines.h"

namespace vkp::test {

struct OfficialKernel {
    std::string path;
    std::vector<uint32_t> spirv;
    KernelInterface iface;
};

inline std::vector<OfficialKernel> officialKernels() {
    PuzzleSet set = loadPuzzleSet(std::string(VKPUZZLES_SOURCE_DIR) + "/puzzles");
    EXPECT_FALSE(set.puzzles.empty());
    std::vector<OfficialKernel> out;
    for (const Puzzle& p : set.puzzles)
        for (const KernelDecl& k : p.kernels) {
            if (!forEveryDevice(p)) continue;
            auto src = readTextFile(k.solutionPath);
            if (!src) {
                ADD_FAILURE() << k.solutionPath << ": " << src.error().message;
                continue;
            }
            CompileResult c = Compiler().compile(*src, k.solutionPath, {});
            if (!c.ok()) {
                ADD_FAILURE() << k.solutionPath << " does not compile";
                continue;
            }
            auto reflected = reflectKernel(c.spirv);
            if (!reflected) {
                ADD_FAILURE() << k.solutionPath << ": " << reflected.error().message;
                continue;
            }
            out.push_back({k.solutionPath, std::move(c.spirv), std::move(*reflected)});
        }
    return out;
}

} // namespace vkp::test
