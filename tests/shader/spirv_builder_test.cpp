// The SPIR-V builder: functions it writes into a module assembled from text are valid structured
// SPIR-V (an if, an if/else, a loop with a phi, a loop left at the end of its body, a branch that
// returns), with the merge instructions and labels in the order SPIR-V asks for.
#include <gtest/gtest.h>

#include "shader/spirv_builder.h"
#include "shader/spirv_text.h"

namespace vkp {
namespace {

using namespace spirv_text;
using Op = spv::Op;

constexpr const char* kEmptyKernel = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";

// A module with one more function, uint f(uint a), whose body `body` writes after the first
// label; its text once assembled, validated (errors as a test failure) and disassembled.
template <class Body> std::string withFunction(Body body) {
    auto module = SpirvModule::parse(assemble(kEmptyKernel));
    EXPECT_TRUE(module.ok());
    if (!module) return "";
    SpirvBuilder b(*module, module->newFunctions);
    uint32_t u = b.uintType();
    uint32_t function = module->newId();
    uint32_t a = b.beginFunction(u, function, module->typeFunction(u, {u}), {u})[0];
    body(b, a);
    b.endFunction();
    std::vector<uint32_t> words = module->assemble();
    EXPECT_EQ(validationErrors(words), "");
    return disassemble(words);
}

TEST(SpirvBuilderTest, AnIfMergesAfterItsBody) {
    std::string text = withFunction([](SpirvBuilder& b, uint32_t a) {
        uint32_t u = b.uintType();
        uint32_t r = b.variable(b.module().typePointer(spv::StorageClass::Function, u));
        b.store(r, a);
        b.ifThen(b.less(a, b.uint(10)), [&] { b.store(r, b.mul(a, b.uint(2))); });
        b.returnValue(b.load(u, r));
    });
    EXPECT_TRUE(containsInOrder(text, {"OpULessThan %bool", "OpSelectionMerge %\\d+ None",
                                       "OpBranchConditional", "OpLabel", "OpIMul", "OpStore",
                                       "OpBranch %\\d+", "OpLabel", "OpLoad", "OpReturnValue"}));
    EXPECT_EQ(countLines(text, "OpSelectionMerge"), 1u);
}

TEST(SpirvBuilderTest, AnIfElseWritesBothBranchesToOneMerge) {
    std::string text = withFunction([](SpirvBuilder& b, uint32_t a) {
        uint32_t u = b.uintType();
        uint32_t r = b.variable(b.module().typePointer(spv::StorageClass::Function, u));
        b.ifElse(
            b.equal(b.bitAnd(a, b.uint(1)), b.uint(0)), [&] { b.store(r, b.div(a, b.uint(2))); },
            [&] { b.store(r, b.add(b.mul(a, b.uint(3)), b.uint(1))); });
        b.returnValue(b.load(u, r));
    });
    EXPECT_TRUE(containsInOrder(
        text, {"OpSelectionMerge %\\d+ None", "OpBranchConditional %\\d+ %\\d+ %\\d+", "OpLabel",
               "OpUDiv", "OpStore", "OpBranch", "OpLabel", "OpIMul", "OpIAdd", "OpStore",
               "OpBranch", "OpLabel", "OpLoad", "OpReturnValue"}));
    EXPECT_EQ(countLines(text, "OpBranch "), 2u); // one from each branch, to the merge
}

// sum of i for i < a, the counter a phi of the entry's 0 and the continue target's i + 1.
TEST(SpirvBuilderTest, ALoopWithAPhiTestsInItsHeader) {
    std::string text = withFunction([](SpirvBuilder& b, uint32_t a) {
        uint32_t u = b.uintType();
        uint32_t sum = b.variable(b.module().typePointer(spv::StorageClass::Function, u));
        b.store(sum, b.uint(0));
        uint32_t entry = b.currentBlock();
        SpirvBuilder::Loop loop = b.newLoop();
        uint32_t i = b.module().newId(), next = b.module().newId();
        auto header = [&] {
            b.define(i, Op::OpPhi, u, {b.uint(0), entry, next, loop.continueTarget});
            return b.less(i, a);
        };
        auto body = [&] {
            b.store(sum, b.add(b.load(u, sum), i));
            return 0u;
        };
        b.loop(loop, header, body, [&] { b.define(next, Op::OpIAdd, u, {i, b.uint(1)}); });
        b.returnValue(b.load(u, sum));
    });
    EXPECT_TRUE(containsInOrder(
        text, {"OpBranch %\\d+", "OpLabel", "OpPhi %uint %uint_0 %\\d+ %\\d+ %\\d+", "OpULessThan",
               "OpLoopMerge %\\d+ %\\d+ None", "OpBranchConditional", "OpLabel", "OpIAdd",
               "OpStore", "OpBranch", "OpLabel", "OpIAdd %uint %\\d+ %uint_1", "OpBranch",
               "OpLabel", "OpLoad", "OpReturnValue"}));
}

// The other shape: no test in the header; the body decides at its end whether to leave.
TEST(SpirvBuilderTest, ALoopCanBeLeftAtTheEndOfItsBody) {
    std::string text = withFunction([](SpirvBuilder& b, uint32_t a) {
        uint32_t u = b.uintType();
        uint32_t x = b.variable(b.module().typePointer(spv::StorageClass::Function, u));
        b.store(x, a);
        b.loop(b.newLoop(), {}, [&] {
            uint32_t half = b.shiftRight(b.load(u, x), b.uint(1));
            b.store(x, half);
            return b.equal(half, b.uint(0));
        });
        b.returnValue(b.load(u, x));
    });
    EXPECT_TRUE(containsInOrder(text, {"OpLoopMerge %\\d+ %\\d+ None", "OpBranch %\\d+", "OpLabel",
                                       "OpShiftRightLogical", "OpIEqual", "OpBranchConditional",
                                       "OpLabel", "OpBranch", "OpLabel", "OpReturnValue"}));
}

// A body that returns ends its block: no branch to the merge follows the return. unless() runs
// its body when the condition is false: its true target is the merge.
TEST(SpirvBuilderTest, ABranchThatReturnsIsNotFollowedByABranchToTheMerge) {
    std::string text = withFunction([](SpirvBuilder& b, uint32_t a) {
        b.ifThen(b.equal(a, b.uint(0)), [&] { b.returnValue(b.uint(7)); });
        b.unless(b.less(a, b.uint(5)), [&] { b.returnValue(b.uint(5)); });
        b.returnValue(a);
    });
    EXPECT_TRUE(containsInOrder(text, {"OpIEqual", "OpSelectionMerge", "OpBranchConditional",
                                       "OpLabel", "OpReturnValue %uint_7", "OpLabel", "OpULessThan",
                                       "OpSelectionMerge", "OpBranchConditional", "OpLabel",
                                       "OpReturnValue %uint_5", "OpLabel", "OpReturnValue"}));
    EXPECT_EQ(countLines(text, "OpBranch "), 0u);
    std::smatch merge, branch;
    std::string afterFirst = text.substr(text.find("OpULessThan"));
    ASSERT_TRUE(std::regex_search(afterFirst, merge, std::regex("OpSelectionMerge (%\\d+)")));
    ASSERT_TRUE(std::regex_search(afterFirst, branch,
                                  std::regex("OpBranchConditional %\\d+ (%\\d+) (%\\d+)")));
    EXPECT_EQ(branch[1], merge[1]); // unless: true goes to the merge
    EXPECT_NE(branch[2], merge[1]);
}

} // namespace
} // namespace vkp
