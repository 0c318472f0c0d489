// The instrumentation rewriters: every official solution and starter instruments into valid SPIR-V,
// with the puzzle's buffers and shared arrays in the layout.
#include <gtest/gtest.h>

#include <filesystem>

#include "puzzle/puzzle_loader.h"
#include "rewrite/compile_debug.h"
#include "rewrite/instrument.h"
#include "shader/compiler.h"
#include "shader/spirv_tools.h"
#include "support/engines.h"

namespace vkp {
namespace {

using test::compileDebug;

TEST(Instrument, EveryPuzzleKernelInstrumentsToValidSpirv) {
    PuzzleSet set = loadPuzzleSet(std::string(VKPUZZLES_SOURCE_DIR) + "/puzzles");
    ASSERT_FALSE(set.puzzles.empty());
    for (const Puzzle& p : set.puzzles)
        for (const KernelDecl& k : p.kernels)
            for (const std::string& path : {k.solutionPath, k.starterPath}) {
                if (!test::forEveryDevice(p)) continue;
                auto src = readTextFile(path);
                ASSERT_TRUE(src.ok());
                auto spirv = compileDebug(*src);
                auto r = instrumentKernel(spirv);
                ASSERT_TRUE(r.ok()) << path << ": " << r.error().message;
                Status valid = validateSpirv(r->spirv);
                EXPECT_TRUE(valid.ok()) << path << ": " << valid.error().message;
                size_t buffers = 0;
                for (const TracedVariable& v : r->layout.variables)
                    buffers += !v.shared;
                EXPECT_EQ(buffers, k.buffers.size()) << path;
            }
}

} // namespace
} // namespace vkp
