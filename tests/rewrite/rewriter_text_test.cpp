// Each SPIR-V rewriter on a kernel written as SPIR-V text (no glslang): the instrumentation's
// rewriters (trace objects, access log and its composite recorders, barrier rounds, forced
// schedule, loop budget, printf, shared bounds) through instrumentKernel and guardKernel on a
// kernel that gives only the one under test something to do, and the device adaptations (rolled
// loops, lockstep barriers, printf stripped) directly. Each output is disassembled, matched against
// patterns and validated. Line recovery only reads a function; it is tested here on text too. The
// interface check writes no SPIR-V: it is no rewriter (tests/shader/interface_check_test.cpp).
#include <gtest/gtest.h>

#include <regex>

#include "rewrite/instrument.h"
#include "rewrite/lockstep_barriers.h"
#include "rewrite/printf_rewrite.h"
#include "rewrite/rolled_loops.h"
#include "shader/line_recovery.h"
#include "shader/spirv_text.h"
#include "trace/forced_schedule.h"
#include "trace/trace.h"

namespace vkp {
namespace {

using namespace spirv_text;

// A kernel of SPIR-V text: `buffer B { uint buf[]; }` at set 0 binding 0, %x the invocation's
// global x and %p the pointer to buf[x]; the parts add to each section, and `body` is main's code
// after them (ending with its return).
struct KernelText {
    std::string capabilities, imports, interface, debug, annotations, globals, body;
};

std::string kernel(const KernelText& k) {
    return "OpCapability Shader\n" + k.capabilities + k.imports +
           "OpMemoryModel Logical GLSL450\n"
           "OpEntryPoint GLCompute %main \"main\" %gid %buf" +
           k.interface +
           "\n"
           "OpExecutionMode %main LocalSize 8 1 1\n" +
           k.debug +
           "OpName %main \"main\"\nOpName %buf \"buf\"\nOpName %x \"x\"\nOpName %p \"p\"\n"
           "OpDecorate %gid BuiltIn GlobalInvocationId\n"
           "OpDecorate %rta ArrayStride 4\n"
           "OpMemberDecorate %Buf 0 Offset 0\n"
           "OpDecorate %Buf Block\n"
           "OpDecorate %buf DescriptorSet 0\n"
           "OpDecorate %buf Binding 0\n" +
           k.annotations +
           "%void = OpTypeVoid\n"
           "%fn = OpTypeFunction %void\n"
           "%bool = OpTypeBool\n"
           "%uint = OpTypeInt 32 0\n"
           "%int = OpTypeInt 32 1\n"
           "%int_0 = OpConstant %int 0\n"
           "%uint_0 = OpConstant %uint 0\n"
           "%uint_1 = OpConstant %uint 1\n"
           "%uint_2 = OpConstant %uint 2\n"
           "%uint_3 = OpConstant %uint 3\n"
           "%uint_10 = OpConstant %uint 10\n"
           "%uint_264 = OpConstant %uint 264\n"
           "%v3uint = OpTypeVector %uint 3\n"
           "%ptr_in_v3 = OpTypePointer Input %v3uint\n"
           "%gid = OpVariable %ptr_in_v3 Input\n"
           "%rta = OpTypeRuntimeArray %uint\n"
           "%Buf = OpTypeStruct %rta\n"
           "%ptr_buf = OpTypePointer StorageBuffer %Buf\n"
           "%buf = OpVariable %ptr_buf StorageBuffer\n"
           "%ptr_uint = OpTypePointer StorageBuffer %uint\n" +
           k.globals +
           "%main = OpFunction %void None %fn\n"
           "%entry = OpLabel\n"
           "%id = OpLoad %v3uint %gid\n"
           "%x = OpCompositeExtract %uint %id 0\n"
           "%p = OpAccessChain %ptr_uint %buf %int_0 %x\n" +
           k.body + "OpFunctionEnd\n";
}

// The friendly name the disassembler gives a uint constant: what a record's first word is.
std::string w0(TraceEventKind kind, uint32_t variable, uint32_t line = 0) {
    return "%uint_" + std::to_string(packTraceWord0(kind, variable, line));
}

// The rewritten kernel's text, checked valid (a test failure with the validator's messages).
std::string validText(const Result<InstrumentResult>& r) {
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    if (!r.ok()) return "";
    EXPECT_EQ(validationErrors(r->spirv), "");
    return disassemble(r->spirv);
}

// buf[x] = buf[x] + 1, instrumented without the loop budget (it has no loop) and with
// `scheduled` as the schedule's bindings.
Result<InstrumentResult> readAndWrite(std::vector<uint32_t> scheduled) {
    KernelText k;
    k.debug = "OpName %v \"v\"\nOpName %w \"w\"\n";
    k.body = "%v = OpLoad %uint %p\n"
             "%w = OpIAdd %uint %v %uint_1\n"
             "OpStore %p %w\n"
             "OpReturn\n";
    InstrumentOptions options;
    options.loopBudget = false;
    options.scheduleBindings = std::move(scheduled);
    return instrumentKernel(assemble(kernel(k)), options);
}

TEST(RewriterText, AccessLogRecordsALoadAfterItAndAStoreBeforeIt) {
    auto r = readAndWrite({});
    std::string text = validText(r);
    EXPECT_TRUE(containsInOrder(
        text, {"%v = OpLoad %uint %p",
               // record(w0, flat index, value, extra): buf[x] is element x
               "OpFunctionCall %void %\\d+ " + w0(TraceEventKind::Read, 0) + " %x %v %uint_0$",
               "%w = OpIAdd %uint %v %uint_1",
               "OpFunctionCall %void %\\d+ " + w0(TraceEventKind::Write, 0) + " %x %w %uint_0$",
               "OpStore %p %w"}));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->accessSites, 2u);
    ASSERT_EQ(r->layout.variables.size(), 1u);
    EXPECT_EQ(r->layout.variables[0].name, "buf");
}

// A load of a volatile buffer is a poll (a look-back reads a flag again and again): it calls a
// recorder of its own, with record()'s arguments, which writes a Repeat record (trace/trace.h) in
// place of a record equal to the one it wrote just before. Stores, and a buffer that is not
// volatile, keep record(); a kernel without a volatile buffer has no poll recorder at all.
TEST(RewriterText, AVolatileBuffersLoadIsRecordedAsAPoll) {
    KernelText k;
    k.annotations = "OpMemberDecorate %Buf 0 Volatile\n";
    k.debug = "OpName %v \"v\"\n";
    k.body = "%v = OpLoad %uint %p\nOpStore %p %v\nOpReturn\n";
    InstrumentOptions options;
    options.loopBudget = false;
    std::string text = validText(instrumentKernel(assemble(kernel(k)), options));
    auto callee = [&](TraceEventKind kind, const std::string& value) {
        std::smatch m;
        std::regex call("OpFunctionCall %void (%\\w+) " + w0(kind, 0) + " %x " + value);
        return std::regex_search(text, m, call) ? m[1].str() : std::string();
    };
    std::string poll = callee(TraceEventKind::Read, "%v"),
                record = callee(TraceEventKind::Write, "%v");
    ASSERT_FALSE(poll.empty()) << text;
    ASSERT_FALSE(record.empty()) << text;
    EXPECT_NE(poll, record);
    // The poll recorder compares the record with the last one (OpAll of an OpIEqual of uvec4s)
    // and writes a Repeat record's first word.
    EXPECT_TRUE(
        containsInOrder(text, {poll + " = OpFunction %void", "OpIEqual %v4bool", "OpAll %bool",
                               w0(TraceEventKind::Repeat, kTraceVariableNone)}))
        << text;

    k.annotations.clear();
    std::string plain = validText(instrumentKernel(assemble(kernel(k)), options));
    EXPECT_EQ(plain.find("OpAll"), std::string::npos);
}

// A whole shared array whose length is a specialization constant, loaded at once: one call of a
// recorder for that type, which loops over the elements (a structured loop with a phi).
TEST(RewriterText, CompositeAccessLoopsOverAnArrayOfSpecializedLength) {
    KernelText k;
    k.interface = " %s";
    k.debug = "OpName %s \"s\"\nOpName %all \"all\"\n";
    k.annotations = "OpDecorate %N SpecId 0\n";
    k.globals = "%N = OpSpecConstant %uint 4\n"
                "%arr = OpTypeArray %uint %N\n"
                "%ptr_wg_arr = OpTypePointer Workgroup %arr\n"
                "%s = OpVariable %ptr_wg_arr Workgroup\n";
    k.body = "%all = OpLoad %arr %s\n"
             "%e = OpCompositeExtract %uint %all 0\n"
             "OpStore %p %e\n"
             "OpReturn\n";
    auto r = instrumentKernel(assemble(kernel(k)));
    std::string text = validText(r);
    // The shared array is the layout's variable 1, after the buffer.
    EXPECT_TRUE(containsInOrder(
        text, {"%all = OpLoad %_arr_uint_\\w+ %s",
               "OpFunctionCall %void %\\d+ %all %uint_0 " + w0(TraceEventKind::Read, 1) + "$",
               "OpStore %p"}));
    EXPECT_TRUE(containsInOrder(
        text, {"OpFunctionParameter %_arr_uint_\\w+", "OpVariable %_ptr_Function__arr_uint",
               "OpBranch", "OpLabel", "OpPhi %uint %uint_0", "OpULessThan %bool",
               "OpLoopMerge %\\d+ %\\d+ None", "OpBranchConditional", "OpLabel",
               "OpAccessChain %_ptr_Function_uint", "OpFunctionCall %void", "OpBranch", "OpLabel",
               "OpIAdd %uint %\\d+ %uint_1", "OpBranch", "OpLabel", "OpReturn"}));
}

// Shared bounds: an index into a shared array that is not a constant within it is clamped to the
// last element before the access chain uses it, in the traced kernel (whose record keeps the
// index asked for, so the check reports it) and in the guarded one; a constant within bounds is
// left alone, a constant past the end is clamped too.
KernelText sharedStores() {
    KernelText k;
    k.interface = " %s %t";
    k.debug = "OpName %s \"s\"\nOpName %t \"t\"\nOpName %q \"q\"\nOpName %in \"in\"\n"
              "OpName %past \"past\"\nOpName %N \"N\"\n";
    k.annotations = "OpDecorate %N SpecId 0\n";
    k.globals = "%N = OpSpecConstant %uint 4\n"
                "%uint_4 = OpConstant %uint 4\n"
                "%arr = OpTypeArray %uint %N\n"
                "%arr4 = OpTypeArray %uint %uint_4\n"
                "%ptr_wg_arr = OpTypePointer Workgroup %arr\n"
                "%ptr_wg_arr4 = OpTypePointer Workgroup %arr4\n"
                "%ptr_wg_uint = OpTypePointer Workgroup %uint\n"
                "%s = OpVariable %ptr_wg_arr Workgroup\n"
                "%t = OpVariable %ptr_wg_arr4 Workgroup\n";
    k.body = "%q = OpAccessChain %ptr_wg_uint %s %x\n"
             "OpStore %q %uint_1\n"
             "%in = OpAccessChain %ptr_wg_uint %t %uint_2\n"
             "OpStore %in %uint_1\n"
             "%past = OpAccessChain %ptr_wg_uint %t %uint_10\n"
             "OpStore %past %uint_1\n"
             "OpReturn\n";
    return k;
}

TEST(RewriterText, SharedBoundsClampAnIndexAndTheTraceKeepsTheOneAskedFor) {
    InstrumentOptions options;
    options.loopBudget = false;
    auto r = instrumentKernel(assemble(kernel(sharedStores())), options);
    std::string text = validText(r);
    EXPECT_TRUE(containsInOrder(
        text, {"(%\\d+) = OpISub %uint %N %uint_1", "(%\\d+) = OpULessThan %bool %x %N",
               "(%\\d+) = OpSelect %uint %\\d+ %x %\\d+",
               "%q = OpAccessChain %_ptr_Workgroup_uint %s %\\d+$",
               // the record of the store into s[x] names x, the index the kernel asked for
               "OpFunctionCall %void %\\d+ " + w0(TraceEventKind::Write, 1) + " %x %uint_1",
               "OpStore %q %uint_1", "%in = OpAccessChain %_ptr_Workgroup_uint %t %uint_2$",
               "OpSelect %uint %\\d+ %uint_10 %\\d+",
               "%past = OpAccessChain %_ptr_Workgroup_uint %t %\\d+$"}));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->sharedIndicesClamped, 2u); // s[x] and t[10]; t[2] is known within bounds
}

TEST(RewriterText, SharedBoundsClampTheGuardedKernelToo) {
    auto r = guardKernel(assemble(kernel(sharedStores())), 100);
    std::string text = validText(r);
    EXPECT_TRUE(containsInOrder(text, {"OpULessThan %bool %x %N", "OpSelect %uint",
                                       "%q = OpAccessChain %_ptr_Workgroup_uint %s %\\d+$"}));
    EXPECT_EQ(countLines(text, "OpFunctionCall"), 0u); // nothing is logged
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->sharedIndicesClamped, 2u);
    EXPECT_EQ(r->loopsGuarded, 0u);
}

TEST(RewriterText, BarrierRoundsRecordWorkgroupAndSubgroupBarriers) {
    KernelText k;
    k.body = "OpControlBarrier %uint_2 %uint_2 %uint_264\n"
             "OpControlBarrier %uint_3 %uint_3 %uint_264\n"
             "OpReturn\n";
    auto r = instrumentKernel(assemble(kernel(k)));
    std::string text = validText(r);
    EXPECT_TRUE(containsInOrder(
        text,
        {"OpFunctionCall %void %\\d+ " + w0(TraceEventKind::Barrier, kTraceVariableNone) +
             " %uint_0 %uint_0 %uint_0",
         "OpControlBarrier %uint_2 %uint_2 %uint_264",
         "OpFunctionCall %void %\\d+ " + w0(TraceEventKind::SubgroupBarrier, kTraceVariableNone) +
             " %uint_0 %uint_0 %uint_0",
         "OpControlBarrier %uint_3 %uint_3 %uint_264"}));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->accessSites, 0u); // barriers are no accesses
}

// A read of the scheduled buffer goes through scheduleView; a write calls scheduleAt before and
// after it; the entry counts itself in and out.
TEST(RewriterText, ScheduleHooksTheScheduledBuffersReadsAndWrites) {
    std::string text = validText(readAndWrite({0}));
    EXPECT_TRUE(containsInOrder(
        text, {"%main = OpFunction", "OpLabel", "OpFunctionCall %void %\\d+$", // init()
               "OpFunctionCall %void %\\d+$",                                  // scheduleStart()
               "%\\d+ = OpLoad %uint %p",                                      // the raw read
               "%v = OpFunctionCall %uint %\\d+ %uint_0 %x %\\d+",             // its view
               "OpFunctionCall %void %\\d+ %uint_0 %x %uint_0 %\\d+",          // before the write
               "OpStore %p %w", "OpFunctionCall %void %\\d+ %uint_0 %x %uint_1 %\\d+", // after
               "OpFunctionCall %void %\\d+$", "OpReturn"})); // scheduleFinish()
    EXPECT_TRUE(containsInOrder(
        text, {"OpDecorate %\\d+ SpecId " + std::to_string(kScheduleConfigSpecId)}));
    EXPECT_EQ(countLines(text, "OpSpecConstant %uint 0"), 1u);
    EXPECT_EQ(countLines(text, "OpLoopMerge"), 1u); // scheduleAt's spin
    EXPECT_GE(countLines(text, "OpSelectionMerge"), 10u);
}

// for (i = 0; i < 10; ++i) {}, its merge block's phi naming the header.
constexpr const char* kLoop = "OpBranch %header\n"
                              "%header = OpLabel\n"
                              "%i = OpPhi %uint %uint_0 %entry %next %cont\n"
                              "%more = OpULessThan %bool %i %uint_10\n"
                              "OpLoopMerge %merge %cont None\n"
                              "OpBranchConditional %more %cont %merge\n"
                              "%cont = OpLabel\n"
                              "%next = OpIAdd %uint %i %uint_1\n"
                              "OpBranch %header\n"
                              "%merge = OpLabel\n"
                              "%r = OpPhi %uint %i %header\n"
                              "OpStore %p %r\n"
                              "OpReturn\n";

TEST(RewriterText, LoopBudgetGuardsABackEdgeAndFixesTheMergesPhi) {
    KernelText k;
    k.debug = "OpName %header \"header\"\nOpName %merge \"merge\"\nOpName %cont \"cont\"\n"
              "OpName %i \"i\"\nOpName %r \"r\"\n";
    k.body = kLoop;
    auto r = guardKernel(assemble(kernel(k)), 100);
    std::string text = validText(r);
    EXPECT_TRUE(
        containsInOrder(text, {"%cont = OpLabel", "OpIAdd %uint %i %uint_1",
                               "(%\\d+) = OpFunctionCall %bool %\\d+ %uint_0",
                               "OpBranchConditional %\\d+ %header %merge", "%merge = OpLabel",
                               "%r = OpPhi %uint %i %header %\\d+ %cont"}));
    EXPECT_EQ(countLines(text, "OpUndef %uint"), 1u);
    EXPECT_TRUE(containsInOrder(text, {"OpConstant %uint 100$"})); // the budget, a constant
    EXPECT_EQ(countLines(text, "OpAtomicIAdd"), 1u);               // the first to run out says so
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->loopsGuarded, 1u);
}

// do { } while (i < 10): the back-edge is conditional; the budget joins its condition.
TEST(RewriterText, LoopBudgetJoinsAConditionalBackEdgesCondition) {
    KernelText k;
    k.debug = "OpName %header \"header\"\nOpName %merge \"merge\"\nOpName %more \"more\"\n";
    k.body = "OpBranch %header\n"
             "%header = OpLabel\n"
             "%i = OpPhi %uint %uint_0 %entry %next %header\n"
             "%next = OpIAdd %uint %i %uint_1\n"
             "%more = OpULessThan %bool %next %uint_10\n"
             "OpLoopMerge %merge %header None\n"
             "OpBranchConditional %more %header %merge\n"
             "%merge = OpLabel\n"
             "OpReturn\n";
    std::string text = validText(instrumentKernel(assemble(kernel(k))));
    EXPECT_TRUE(containsInOrder(
        text, {"%more = OpULessThan", "(%\\d+) = OpFunctionCall %bool %\\d+ %uint_0",
               "OpLogicalAnd %bool %more %\\d+", "OpLoopMerge %merge %header None",
               "OpBranchConditional %\\d+ %header %merge"}));
}

// debugPrintfEXT("x=%u", x) as glslang writes it.
KernelText printfKernel() {
    KernelText k;
    k.imports = "OpExtension \"SPV_KHR_non_semantic_info\"\n"
                "%dbg = OpExtInstImport \"NonSemantic.DebugPrintf\"\n";
    k.debug = "%fmt = OpString \"x=%u\"\n";
    k.body = "%said = OpExtInst %void %dbg 1 %fmt %x\nOpReturn\n";
    return k;
}

TEST(RewriterText, PrintfBecomesACallOfAWriterThatRecordsOrCountsTheDrop) {
    auto r = instrumentKernel(assemble(kernel(printfKernel())));
    std::string text = validText(r);
    // writeN(w0, format index, argument words): one argument word, format 0.
    EXPECT_TRUE(containsInOrder(
        text, {"OpFunctionCall %void %\\d+ " + w0(TraceEventKind::Printf, 1) + " %uint_0 %x$"}));
    EXPECT_EQ(countLines(text, "OpExtInst|DebugPrintf|SPV_KHR_non_semantic_info"), 0u);
    // The writer: records when there is room, else counts the line as dropped.
    EXPECT_TRUE(
        containsInOrder(text, {"OpLogicalAnd %bool", "OpSelectionMerge (%\\d+) None",
                               "OpBranchConditional %\\d+ %\\d+ %\\d+", "OpLabel",
                               "OpFunctionCall %void", "OpBranch", "OpLabel", "OpShiftRightLogical",
                               "OpSelect %uint", "OpBranch", "OpLabel", "OpReturn"}));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->printfCalls, 1u);
    EXPECT_EQ(r->layout.printfFormats, std::vector<std::string>{"x=%u"});
}

TEST(RewriterText, StrippedPrintfLeavesNoCallNorImport) {
    auto stripped = stripDebugPrintf(assemble(kernel(printfKernel())));
    ASSERT_TRUE(stripped.ok());
    EXPECT_EQ(validationErrors(*stripped), "");
    std::string text = disassemble(*stripped);
    EXPECT_EQ(countLines(text, "OpExtInst|DebugPrintf|SPV_KHR_non_semantic_info"), 0u);
    EXPECT_TRUE(containsInOrder(text, {"%x = OpCompositeExtract", "OpReturn"}));
}

TEST(RewriterText, LockstepBarriersTurnSubgroupControlBarriersIntoMemoryBarriers) {
    KernelText k;
    k.body = "OpControlBarrier %uint_3 %uint_3 %uint_264\n"
             "OpControlBarrier %uint_2 %uint_2 %uint_264\n"
             "OpReturn\n";
    std::vector<uint32_t> words = assemble(kernel(k));
    auto adapted = lockstepSubgroupBarriers(words);
    ASSERT_TRUE(adapted.ok());
    EXPECT_EQ(validationErrors(*adapted), "");
    std::string text = disassemble(*adapted);
    EXPECT_TRUE(containsInOrder(
        text, {"OpMemoryBarrier %uint_3 %uint_264", "OpControlBarrier %uint_2 %uint_2 %uint_264"}));
    EXPECT_EQ(countLines(text, "OpControlBarrier %uint_3"), 0u);

    KernelText workgroupOnly;
    workgroupOnly.body = "OpControlBarrier %uint_2 %uint_2 %uint_264\nOpReturn\n";
    std::vector<uint32_t> unchanged = assemble(kernel(workgroupOnly));
    EXPECT_EQ(lockstepSubgroupBarriers(unchanged).value(), unchanged);
}

TEST(RewriterText, RolledLoopsAskNotToUnrollAndKeepOtherControls) {
    KernelText k;
    k.body = kLoop;
    std::string unrolled = kernel(k);
    unrolled.replace(unrolled.find("OpLoopMerge %merge %cont None"),
                     std::string("OpLoopMerge %merge %cont None").size(),
                     "OpLoopMerge %merge %cont Unroll|DependencyLength 4");
    auto rolled = keepLoopsRolled(assemble(unrolled));
    ASSERT_TRUE(rolled.ok()) << rolled.error().message;
    EXPECT_EQ(validationErrors(*rolled), "");
    EXPECT_TRUE(containsInOrder(disassemble(*rolled),
                                {"OpLoopMerge %\\d+ %\\d+ DontUnroll\\|DependencyLength 4$"}));
}

// glslang marks the first access to a shared array of specialized length with the array's own
// line (`OpLine 67`, `OpLine 18`, then the store): a line before the function's is a
// declaration's, so the store keeps line 67 (it was recorded at 18, the declaration).
TEST(RewriterText, LineRecoveryKeepsTheStatementsLineOverADeclarationsLine) {
    std::vector<uint32_t> storeLines;
    for (uint32_t declared : {0u, 30u}) { // the first OpLine bounds it, or the declaration's
        KernelText k;
        k.debug = "%file = OpString \"k.comp\"\n";
        k.body = "OpLine %file 40 3\n"
                 "%v = OpIAdd %uint %x %uint_1\n"
                 "OpLine %file 67 5\n"
                 "OpLine %file 18 0\n"
                 "OpStore %p %v\n"
                 "OpLine %file 69 0\n"
                 "OpStore %p %x\n"
                 "OpReturn\n";
        std::vector<uint32_t> words = assemble(kernel(k));
        auto module = SpirvModule::parse(words);
        ASSERT_TRUE(module.ok());
        LineRecovery lines;
        lines.beginFunction(declared);
        for (const SpirvInstruction& inst : module->functions) {
            lines.observe(inst);
            if (inst.opcode() == spv::Op::OpStore) storeLines.push_back(lines.line());
        }
    }
    EXPECT_EQ(storeLines, (std::vector<uint32_t>{67, 69, 67, 69}));
}

// A block that starts without an OpLine (the branches of `c ? a : b`) takes the line of the
// branch that first named it; the record of its store carries that line's site.
TEST(RewriterText, LineRecoveryGivesABlockWithoutALineTheLineOfItsBranch) {
    KernelText k;
    k.debug = "%file = OpString \"k.comp\"\nOpName %then \"then\"\n";
    k.body = "OpLine %file 7 3\n"
             "%small = OpULessThan %bool %x %uint_10\n"
             "OpSelectionMerge %join None\n"
             "OpBranchConditional %small %then %join\n"
             "%then = OpLabel\n"
             "OpStore %p %x\n"
             "OpBranch %join\n"
             "%join = OpLabel\n"
             "OpNoLine\n"
             "OpReturn\n";
    std::vector<uint32_t> words = assemble(kernel(k));
    auto module = SpirvModule::parse(words);
    ASSERT_TRUE(module.ok());
    LineRecovery lines;
    lines.beginFunction();
    std::vector<uint32_t> storeLines, returnLines;
    for (const SpirvInstruction& inst : module->functions) {
        lines.observe(inst);
        if (inst.opcode() == spv::Op::OpStore) storeLines.push_back(lines.line());
        if (inst.opcode() == spv::Op::OpReturn) returnLines.push_back(lines.line());
    }
    EXPECT_EQ(storeLines, std::vector<uint32_t>{7});
    EXPECT_EQ(returnLines, std::vector<uint32_t>{0}); // after OpNoLine

    auto r = instrumentKernel(words);
    std::string text = validText(r);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->layout.siteLines, (std::vector<uint32_t>{0, 7}));
    EXPECT_TRUE(containsInOrder(
        text, {"%then = OpLabel",
               "OpFunctionCall %void %\\d+ " + w0(TraceEventKind::Write, 0, 1) + " %x %x %uint_0",
               "OpStore %p %x"}));
}

TEST(RewriterText, TraceObjectsDeclareTheTraceBufferAndTheInitCall) {
    KernelText k;
    k.body = "OpReturn\n";
    InstrumentOptions options;
    options.traceSet = 2;
    options.traceBinding = 5;
    std::string text = validText(instrumentKernel(assemble(kernel(k)), options));
    // Two views of one buffer (uint words and uvec4 records), both at the options' binding.
    EXPECT_EQ(countLines(text, "OpDecorate %\\d+ DescriptorSet 2"), 2u);
    EXPECT_EQ(countLines(text, "OpDecorate %\\d+ Binding 5"), 2u);
    EXPECT_TRUE(
        containsInOrder(text, {"OpEntryPoint GLCompute %main \"main\" %gl_GlobalInvocationID %buf "
                               "%gl_WorkGroupID %gl_LocalInvocationIndex %\\d+"}));
    // main: init() first; the record count stored into the trace before the return.
    EXPECT_TRUE(containsInOrder(
        text, {"%main = OpFunction", "OpLabel", "OpFunctionCall %void %\\d+$", "OpLoad %uint",
               "OpLoad %uint", "OpAccessChain %_ptr_StorageBuffer_uint", "OpStore", "OpReturn"}));
    // record(): one uvec4 store when the invocation has a slot left.
    EXPECT_TRUE(
        containsInOrder(text, {"OpFunctionParameter %uint", "OpULessThan %bool", "OpSelectionMerge",
                               "OpBranchConditional", "OpCompositeConstruct %v4uint", "OpStore",
                               "OpBranch", "OpLabel", "OpIAdd %uint %\\d+ %uint_1", "OpReturn"}));

    std::string guarded = validText(guardKernel(assemble(kernel(k)), 100, options));
    EXPECT_EQ(countLines(guarded, "OpDecorate %\\d+ DescriptorSet 2"), 1u); // the guard buffer
    EXPECT_TRUE(containsInOrder(guarded, {"%main = OpFunction", "OpLabel", "OpReturn"}));
    EXPECT_EQ(countLines(guarded, "OpFunctionCall"), 0u); // no init(), no loop to guard
}

} // namespace
} // namespace vkp
