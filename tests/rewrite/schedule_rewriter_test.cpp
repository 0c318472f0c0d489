// The forced-schedule rewriter: writes to the scheduled buffers (and only those) call the hold
// helper, before and after each write; the result passes the SPIR-V validator.
#include <gtest/gtest.h>

#include "puzzle/puzzle_loader.h"
#include "rewrite/compile_debug.h"
#include "rewrite/instrument.h"
#include "shader/compiler.h"
#include "shader/spirv_module.h"
#include "shader/spirv_tools.h"

namespace vkp {
namespace {

using test::compileDebug;

// The module's functions: the kernel's and the helpers the instrumentation appends.
size_t functionCount(const std::vector<uint32_t>& spirv) {
    auto m = SpirvModule::parse(spirv);
    EXPECT_TRUE(m.ok());
    size_t n = 0;
    for (const SpirvInstruction& inst : m->functions)
        n += inst.opcode() == spv::Op::OpFunction;
    return n;
}

const char* kKernel = R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Status { uint status[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    result[i] = 1u;
    if (i == 0u) atomicExchange(status[gl_WorkGroupID.x], 5u);
    uint seen = atomicOr(status[0], 0u); // a read, not a write
    result[i] += seen;
}
)";

// The scan-decoupled solution with its status buffer scheduled: valid, and 4 more functions
// (scheduleStart, scheduleFinish, scheduleAt, scheduleView) than without.
TEST(ScheduleRewriter, ScheduledSolutionIsValidSpirv) {
    PuzzleSet set = loadPuzzleSet(std::string(VKPUZZLES_SOURCE_DIR) + "/puzzles");
    auto p = set.find("scan-decoupled");
    ASSERT_TRUE(p.ok());
    auto src = readTextFile((*p)->solutionPath);
    ASSERT_TRUE(src.ok());
    auto spirv = compileDebug(*src);
    InstrumentOptions options;
    options.scheduleBindings = {2};
    auto held = instrumentKernel(spirv, options);
    ASSERT_TRUE(held.ok()) << held.error().message;
    Status valid = validateSpirv(held->spirv);
    EXPECT_TRUE(valid.ok()) << valid.error().message;
    auto plain = instrumentKernel(spirv);
    ASSERT_TRUE(plain.ok());
    EXPECT_EQ(functionCount(held->spirv), functionCount(plain->spirv) + 4);
}

// Only writes to the scheduled binding get the hook, twice each (before and after); the atomicOr
// with 0 is a read, and reads of the scheduled binding (only those) go through its view.
TEST(ScheduleRewriter, OnlyWritesToTheScheduledBufferAreHooked) {
    auto spirv = compileDebug(kKernel);
    auto countCalls = [&](std::vector<uint32_t> bindings, size_t operands) {
        InstrumentOptions options;
        options.scheduleBindings = std::move(bindings);
        auto r = instrumentKernel(spirv, options);
        EXPECT_TRUE(r.ok());
        EXPECT_TRUE(validateSpirv(r->spirv).ok());
        auto m = SpirvModule::parse(r->spirv);
        // scheduleAt takes four parameters, scheduleView three: find them by their calls'
        // operand count (the function, then its arguments).
        size_t calls = 0;
        for (const SpirvInstruction& inst : m->functions)
            if (inst.opcode() == spv::Op::OpFunctionCall && inst.operandCount() == operands)
                ++calls;
        return calls;
    };
    // The trace's own helpers take four arguments too: count scheduleAt's calls as those that
    // scheduling a binding adds.
    const size_t at = 5, view = 4;
    const size_t others = countCalls({}, at);
    EXPECT_EQ(countCalls({0}, at) - others, 2u); // the atomicExchange: before and after
    EXPECT_EQ(countCalls({1}, at) - others, 4u); // the two stores to result
    EXPECT_EQ(countCalls({0}, view), 1u);        // atomicOr(status[0], 0u)
    EXPECT_EQ(countCalls({1}, view), 1u);        // result[i] += ...: its load
    EXPECT_EQ(countCalls({}, view), 0u);
}

} // namespace
} // namespace vkp
