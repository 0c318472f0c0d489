// The trace format: SizeExpr evaluation, invocation ids and names, the initial trace buffer, and
// packing a buffer for read-back, and decoding it (rounds per invocation, clamped counts, dropped
// records, the loop budget status word, too-small buffers).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "trace/trace.h"

namespace vkp {
namespace {

// --- SizeExpr ------------------------------------------------------------------------------

SizeExpr literal(uint32_t v) {
    SizeExpr e;
    e.kind = SizeExpr::Kind::Literal;
    e.value = v;
    return e;
}

SizeExpr spec(uint32_t id, uint32_t defaultValue) {
    SizeExpr e;
    e.kind = SizeExpr::Kind::Spec;
    e.specId = id;
    e.value = defaultValue;
    return e;
}

SizeExpr binary(SizeExpr::Kind kind, SizeExpr a, SizeExpr b) {
    SizeExpr e;
    e.kind = kind;
    e.operands = {std::move(a), std::move(b)};
    return e;
}

TEST(TraceSizeExpr, LiteralIsItsValue) {
    EXPECT_EQ(literal(0).evaluate({}), 0u);
    EXPECT_EQ(literal(17).evaluate({}), 17u);
    EXPECT_EQ(literal(17).evaluate({{3, 99}}), 17u); // constants do not affect literals
    EXPECT_EQ(literal(0xffffffffu).evaluate({}), 0xffffffffull);
}

TEST(TraceSizeExpr, SpecConstantUsesTheCaseValueOrItsDefault) {
    SizeExpr e = spec(3, 16);
    EXPECT_EQ(e.evaluate({}), 16u);
    EXPECT_EQ(e.evaluate({{3, 64}}), 64u);
    EXPECT_EQ(e.evaluate({{4, 64}}), 16u); // another id: the default
    EXPECT_EQ(e.evaluate({{3, 0}}), 0u);   // an explicit zero is a value, not "unset"
    EXPECT_EQ(spec(7, 5).evaluate({{3, 64}, {7, 9}}), 9u);
}

TEST(TraceSizeExpr, ArithmeticNestsAndUsesTheConstants) {
    using K = SizeExpr::Kind;
    EXPECT_EQ(binary(K::Add, literal(3), literal(4)).evaluate({}), 7u);
    EXPECT_EQ(binary(K::Sub, literal(10), literal(4)).evaluate({}), 6u);
    EXPECT_EQ(binary(K::Mul, literal(6), literal(7)).evaluate({}), 42u);
    EXPECT_EQ(binary(K::Div, literal(42), literal(5)).evaluate({}), 8u); // integer division

    // (SIZE + 1) * (SIZE / 2) - 3 with SIZE = spec 3.
    SizeExpr e = binary(K::Sub,
                        binary(K::Mul, binary(K::Add, spec(3, 8), literal(1)),
                               binary(K::Div, spec(3, 8), literal(2))),
                        literal(3));
    EXPECT_EQ(e.evaluate({}), (8u + 1) * (8u / 2) - 3);          // 33
    EXPECT_EQ(e.evaluate({{3, 10}}), (10u + 1) * (10u / 2) - 3); // 52

    // Products do not wrap at 32 bits.
    EXPECT_EQ(binary(K::Mul, literal(0x10000), literal(0x10000)).evaluate({}), 0x100000000ull);
}

TEST(TraceSizeExpr, ShiftsRemaindersAndBitwiseOperations) {
    using K = SizeExpr::Kind;
    EXPECT_EQ(binary(K::ShiftLeft, literal(1), spec(4, 4)).evaluate({}), 16u);
    EXPECT_EQ(binary(K::ShiftLeft, literal(1), spec(4, 4)).evaluate({{4, 8}}), 256u);
    EXPECT_EQ(binary(K::ShiftLeft, literal(1), literal(32)).evaluate({}), 0u); // 32-bit: gone
    EXPECT_EQ(binary(K::ShiftLeft, literal(0x80000001u), literal(1)).evaluate({}), 2u);
    EXPECT_EQ(binary(K::ShiftRight, literal(256), literal(3)).evaluate({}), 32u);
    EXPECT_EQ(binary(K::ShiftRight, literal(256), literal(40)).evaluate({}), 0u);
    EXPECT_EQ(binary(K::Mod, literal(17), literal(5)).evaluate({}), 2u);
    EXPECT_EQ(binary(K::Mod, literal(17), literal(0)).evaluate({}), 0u);
    EXPECT_EQ(binary(K::And, literal(12), literal(10)).evaluate({}), 8u);
    EXPECT_EQ(binary(K::Or, literal(12), literal(10)).evaluate({}), 14u);
    EXPECT_EQ(binary(K::Xor, literal(12), literal(10)).evaluate({}), 6u);
}

TEST(TraceSizeExpr, AnUnknownOperationAnywhereMakesTheLengthUnknown) {
    using K = SizeExpr::Kind;
    SizeExpr unknown;
    unknown.kind = K::Unknown;
    EXPECT_TRUE(binary(K::Add, literal(1), spec(3, 2)).known());
    EXPECT_FALSE(unknown.known());
    EXPECT_FALSE(binary(K::Mul, literal(4), binary(K::Add, unknown, literal(1))).known());
    EXPECT_EQ(unknown.evaluate({}), 0u);
}

TEST(TraceSizeExpr, DivisionByZeroAndNegativeDifferencesGiveZero) {
    using K = SizeExpr::Kind;
    EXPECT_EQ(binary(K::Div, literal(42), literal(0)).evaluate({}), 0u);
    EXPECT_EQ(binary(K::Div, literal(42), spec(3, 2)).evaluate({{3, 0}}), 0u);
    EXPECT_EQ(binary(K::Div, literal(42), spec(3, 2)).evaluate({}), 21u);
    EXPECT_EQ(binary(K::Sub, literal(3), literal(4)).evaluate({}), 0u); // clamped, not wrapped
}

TEST(TraceSizeExpr, MalformedArithmeticGivesZero) {
    SizeExpr e;
    e.kind = SizeExpr::Kind::Add;
    e.operands = {literal(5)}; // one operand only
    EXPECT_EQ(e.evaluate({}), 0u);
    e.operands.clear();
    EXPECT_EQ(e.evaluate({}), 0u);
}

// --- invocation ids and names ----------------------------------------------------------------

TraceLaunch launch(std::array<uint32_t, 3> size, std::array<uint32_t, 3> groups) {
    TraceLaunch l;
    l.workgroupSize = size;
    l.workgroups = groups;
    return l;
}

TEST(TraceLaunchCounts, InvocationsPerGroupAndTotal) {
    TraceLaunch l = launch({4, 2, 1}, {3, 2, 1});
    EXPECT_EQ(l.invocationsPerGroup(), 8u);
    EXPECT_EQ(l.invocations(), 48u);
    EXPECT_EQ(launch({2, 3, 4}, {2, 1, 3}).invocations(), 144u);
}

TEST(TraceInvocationIds, OneDimensional) {
    TraceLaunch l = launch({8, 1, 1}, {3, 1, 1});
    InvocationIds ids = invocationIds(l, 19); // workgroup 2, local 3
    EXPECT_EQ(ids.groupIndex, 2u);
    EXPECT_EQ(ids.localIndex, 3u);
    EXPECT_EQ(ids.local, (std::array<uint32_t, 3>{3, 0, 0}));
    EXPECT_EQ(ids.group, (std::array<uint32_t, 3>{2, 0, 0}));
    EXPECT_EQ(ids.global, (std::array<uint32_t, 3>{19, 0, 0}));

    InvocationIds first = invocationIds(l, 0);
    EXPECT_EQ(first.global, (std::array<uint32_t, 3>{0, 0, 0}));
    EXPECT_EQ(first.groupIndex, 0u);
}

TEST(TraceInvocationIds, TwoDimensional) {
    // Workgroups of 4x2, a grid of 3x2. Invocation 13: workgroup index 13 / 8 = 1 -> group
    // (1, 0); local index 13 % 8 = 5 -> local (5 % 4, 5 / 4) = (1, 1); global (1*4+1, 0*2+1).
    TraceLaunch l = launch({4, 2, 1}, {3, 2, 1});
    InvocationIds ids = invocationIds(l, 13);
    EXPECT_EQ(ids.groupIndex, 1u);
    EXPECT_EQ(ids.localIndex, 5u);
    EXPECT_EQ(ids.local, (std::array<uint32_t, 3>{1, 1, 0}));
    EXPECT_EQ(ids.group, (std::array<uint32_t, 3>{1, 0, 0}));
    EXPECT_EQ(ids.global, (std::array<uint32_t, 3>{5, 1, 0}));

    // Invocation 45: group index 5 -> (5 % 3, 5 / 3) = (2, 1); local 5 -> (1, 1); global (9, 3).
    InvocationIds last = invocationIds(l, 45);
    EXPECT_EQ(last.groupIndex, 5u);
    EXPECT_EQ(last.local, (std::array<uint32_t, 3>{1, 1, 0}));
    EXPECT_EQ(last.group, (std::array<uint32_t, 3>{2, 1, 0}));
    EXPECT_EQ(last.global, (std::array<uint32_t, 3>{9, 3, 0}));
}

TEST(TraceInvocationIds, ThreeDimensional) {
    // Workgroups of 2x3x4 (24 invocations), a grid of 2x1x3. Group (1, 0, 2) has index
    // 1 + 0*2 + 2*2 = 5; local (1, 2, 3) has index 1 + 2*2 + 3*6 = 23: invocation 5*24 + 23.
    TraceLaunch l = launch({2, 3, 4}, {2, 1, 3});
    InvocationIds ids = invocationIds(l, 143);
    EXPECT_EQ(ids.groupIndex, 5u);
    EXPECT_EQ(ids.localIndex, 23u);
    EXPECT_EQ(ids.local, (std::array<uint32_t, 3>{1, 2, 3}));
    EXPECT_EQ(ids.group, (std::array<uint32_t, 3>{1, 0, 2}));
    EXPECT_EQ(ids.global, (std::array<uint32_t, 3>{3, 2, 11}));
}

TEST(TraceInvocationIds, EveryInvocationMapsToADistinctGlobalId) {
    TraceLaunch l = launch({2, 3, 2}, {2, 2, 2});
    std::map<std::array<uint32_t, 3>, uint64_t> seen;
    for (uint64_t i = 0; i < l.invocations(); ++i) {
        InvocationIds ids = invocationIds(l, i);
        for (int d = 0; d < 3; ++d) {
            EXPECT_LT(ids.local[d], l.workgroupSize[d]);
            EXPECT_LT(ids.group[d], l.workgroups[d]);
        }
        EXPECT_EQ(uint64_t(ids.groupIndex) * l.invocationsPerGroup() + ids.localIndex, i);
        EXPECT_TRUE(seen.emplace(ids.global, i).second) << "invocation " << i;
    }
    EXPECT_EQ(seen.size(), l.invocations());
}

TEST(TraceInvocationIndex, GlobalIdToFlatIndexWorkgroupMajor) {
    // The example of ThreeDimensional the other way: global (3, 2, 11) is local (1, 2, 3) of
    // group (1, 0, 2): invocation 5*24 + 23.
    TraceLaunch l = launch({2, 3, 4}, {2, 1, 3});
    EXPECT_EQ(invocationIndex(l, {3, 2, 11}), 143u);
    EXPECT_EQ(invocationIndex(l, {0, 0, 0}), 0u);
    // 1D: workgroups of 8, global 19 is local 3 of group 2.
    EXPECT_EQ(invocationIndex(launch({8, 1, 1}, {4, 1, 1}), {19, 0, 0}), 19u);
    // 2D: workgroups of 2x2 in a 2x3 grid; global (3, 5) is local (1, 1) of group (1, 2) = 5.
    EXPECT_EQ(invocationIndex(launch({2, 2, 1}, {2, 3, 1}), {3, 5, 0}), 23u);
}

TEST(TraceInvocationIndex, InverseOfInvocationIds) {
    TraceLaunch l = launch({3, 2, 2}, {2, 3, 2});
    for (uint64_t i = 0; i < l.invocations(); ++i)
        EXPECT_EQ(invocationIndex(l, invocationIds(l, i).global), i) << "invocation " << i;
}

TEST(TraceInvocationName, OneWorkgroupNamesOnlyTheThread) {
    EXPECT_EQ(invocationName(launch({8, 1, 1}, {1, 1, 1}), 5), "thread 5");
    EXPECT_EQ(invocationName(launch({4, 2, 1}, {1, 1, 1}), 5), "thread (1, 1)");
    EXPECT_EQ(invocationName(launch({2, 2, 2}, {1, 1, 1}), 7), "thread (1, 1, 1)");
}

TEST(TraceInvocationName, SeveralWorkgroupsAddLocalAndWorkgroupIds) {
    EXPECT_EQ(invocationName(launch({4, 1, 1}, {3, 1, 1}), 9), "thread 9 (local 1 of workgroup 2)");
    EXPECT_EQ(invocationName(launch({4, 2, 1}, {3, 2, 1}), 13),
              "thread (5, 1) (local (1, 1) of workgroup (1, 0))");
    EXPECT_EQ(invocationName(launch({2, 3, 4}, {2, 1, 3}), 143),
              "thread (3, 2, 11) (local (1, 2, 3) of workgroup (1, 0, 2))");
    // A 1D workgroup in a 2D grid: each id is written with the dimensions of its own extent.
    // Invocation 13: group index 3 -> (1, 1); local 1; global (1*4+1, 1*1+0) = (5, 1).
    EXPECT_EQ(invocationName(launch({4, 1, 1}, {2, 3, 1}), 13),
              "thread (5, 1) (local 1 of workgroup (1, 1))");
}

// --- makeTraceBuffer -------------------------------------------------------------------------

TEST(TraceBuffer, HeaderCountsAndStatusAndTotalSize) {
    TraceLaunch l = launch({4, 2, 1}, {3, 2, 1}); // 48 invocations
    uint64_t total = 0;
    std::vector<uint32_t> w = makeTraceBuffer(l, 5, 100, &total);
    const uint64_t n = 48, statusAt = kTraceHeaderWords + n, recordsAt = statusAt + n;
    ASSERT_EQ(w.size(), recordsAt); // header, counts and status only
    EXPECT_EQ(total, recordsAt + n * 5 * kTraceRecordWords);
    EXPECT_EQ(w[0], 0u); // unused
    EXPECT_EQ(w[1], 5u); // slots per invocation
    EXPECT_EQ(w[2], 8u); // invocations per workgroup
    EXPECT_EQ(w[3], 3u); // workgroups in x
    EXPECT_EQ(w[4], 2u); // workgroups in y
    EXPECT_EQ(w[5], recordsAt);
    EXPECT_EQ(w[6], 100u); // loop budget
    EXPECT_EQ(w[7], statusAt);
    for (uint64_t i = kTraceHeaderWords; i < w.size(); ++i)
        EXPECT_EQ(w[i], 0u) << "word " << i;
}

TEST(TraceBuffer, ZeroSlotsStillHasCountsAndStatus) {
    uint64_t total = 0;
    std::vector<uint32_t> w =
        makeTraceBuffer(launch({3, 1, 1}, {1, 1, 1}), 0, kDefaultLoopBudget, &total);
    // 8 header words, 3 counts, 3 status words: the records would start at word 14, rounded up
    // to 16 so that a kernel writes each record as one 16-byte store.
    EXPECT_EQ(w.size(), 16u);
    EXPECT_EQ(w[5], 16u);
    EXPECT_EQ(total, w.size());
    EXPECT_EQ(w[6], kDefaultLoopBudget);
}

TEST(TraceBuffer, RecordsStartOnAWholeRecordAfterAScheduleBlock) {
    uint64_t total = 0;
    std::vector<uint32_t> block{1, 2, 3}; // 8 + 4 + 4 + 3 = 19 words before the records
    std::vector<uint32_t> w =
        makeTraceBuffer(launch({4, 1, 1}, {1, 1, 1}), 2, kDefaultLoopBudget, &total, block);
    EXPECT_EQ(w[5], 20u);
    EXPECT_EQ(w[5] % kTraceRecordWords, 0u);
    EXPECT_EQ(total, 20u + 4 * 2 * kTraceRecordWords);
}

// --- packTraceWord0 ----------------------------------------------------------------------------

TEST(TraceWord0, PacksKindVariableAndLine) {
    uint32_t w = packTraceWord0(TraceEventKind::Atomic, 5, 1234);
    EXPECT_EQ(w >> 28, 3u);
    EXPECT_EQ((w >> kTraceLineBits) & 0xff, 5u);
    EXPECT_EQ(w & ((1u << kTraceLineBits) - 1), 1234u);
    // Out-of-range lines and variables are masked, not spilled into the other fields.
    uint32_t m = packTraceWord0(TraceEventKind::Read, 0x1ff, (1u << kTraceLineBits) + 7);
    EXPECT_EQ(m >> 28, 1u);
    EXPECT_EQ((m >> kTraceLineBits) & 0xff, 0xffu);
    EXPECT_EQ(m & ((1u << kTraceLineBits) - 1), 7u);
}

TEST(TraceEventKindNames, AreReadable) {
    EXPECT_STREQ(traceEventKindName(TraceEventKind::Read), "read");
    EXPECT_STREQ(traceEventKindName(TraceEventKind::Write), "write");
    EXPECT_STREQ(traceEventKindName(TraceEventKind::Atomic), "atomic");
    EXPECT_STREQ(traceEventKindName(TraceEventKind::Barrier), "barrier");
    EXPECT_STREQ(traceEventKindName(TraceEventKind::LoopBudget), "loop budget");
    EXPECT_STREQ(traceEventKindName(TraceEventKind::Repeat), "repeat");
}

// --- decodeTrace -------------------------------------------------------------------------------

// A read-back buffer built by hand, as an instrumented kernel would have written it.
struct FakeBuffer {
    TraceLaunch launch;
    std::vector<uint32_t> words;
    uint32_t slots = 0;

    FakeBuffer(TraceLaunch l, uint32_t slotsPerInvocation, uint32_t budget = 100)
        : launch(l), slots(slotsPerInvocation) {
        uint64_t total = 0;
        words = makeTraceBuffer(l, slotsPerInvocation, budget, &total);
        words.resize(total, 0xdeadbeefu); // records are never initialised
    }
    // Appends a record to an invocation's slots the way record() does (count = position + 1).
    void add(uint64_t inv, TraceEventKind kind, uint32_t var, uint32_t line, uint32_t index = 0,
             uint32_t value = 0, uint32_t extra = 0) {
        uint32_t& count = words[kTraceHeaderWords + inv];
        ASSERT_LT(count, slots);
        uint64_t at = words[5] + (inv * slots + count) * kTraceRecordWords;
        words[at] = packTraceWord0(kind, var, line);
        words[at + 1] = index;
        words[at + 2] = value;
        words[at + 3] = extra;
        ++count;
    }
    uint32_t& status(uint64_t inv) { return words[words[7] + inv]; }
    uint32_t& count(uint64_t inv) { return words[kTraceHeaderWords + inv]; }
    // As the host reads it back.
    std::vector<uint32_t> packed() const { return packTraceBuffer(words); }
};

std::vector<TraceVariableInfo> twoVariables() {
    TraceVariableInfo a;
    a.decl.name = "data";
    a.length = 8;
    a.puzzleBuffer = 0;
    TraceVariableInfo s;
    s.decl.name = "cache";
    s.decl.shared = true;
    s.length = 4;
    s.dims = {4};
    return {a, s};
}

TEST(TraceDecode, RoundTripsRecordsAndDerivesRoundsPerInvocation) {
    FakeBuffer b(launch({3, 1, 1}, {1, 1, 1}), 8);
    using K = TraceEventKind;
    // Invocation 0: write, barrier, read, barrier, write.
    b.add(0, K::Write, 1, 10, 0, 42);
    b.add(0, K::Barrier, kTraceVariableNone, 11);
    b.add(0, K::Read, 1, 12, 2, 0x3f800000u);
    b.add(0, K::Barrier, kTraceVariableNone, 13);
    b.add(0, K::Write, 0, 14, 7, 0xffffffffu);
    // Invocation 1: a read and an atomic, no barrier.
    b.add(1, K::Read, 0, 5, 1, 99);
    b.add(1, K::Atomic, 0, 6, 3, 7, 1);
    // Invocation 2: a barrier first, then a read.
    b.add(2, K::Barrier, kTraceVariableNone, 11);
    b.add(2, K::Read, 1, 12, 3, 4);

    auto r = decodeTrace(b.packed(), b.launch, twoVariables());
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Trace& t = *r;
    EXPECT_EQ(t.launch.workgroupSize, b.launch.workgroupSize);
    EXPECT_EQ(t.dropped, 0u);
    EXPECT_EQ(t.slotsPerInvocation, 8u);
    ASSERT_EQ(t.variables.size(), 2u);
    EXPECT_EQ(t.variables[0].decl.name, "data");
    EXPECT_EQ(t.variables[0].puzzleBuffer, 0);
    EXPECT_TRUE(t.variables[1].decl.shared);
    ASSERT_EQ(t.threads.size(), 3u);
    EXPECT_EQ(t.eventCount(), 9u);

    const auto& e0 = t.threads[0];
    ASSERT_EQ(e0.size(), 5u);
    EXPECT_EQ(e0[0].kind, K::Write);
    EXPECT_EQ(e0[0].variable, 1u);
    EXPECT_EQ(e0[0].line, 10u);
    EXPECT_EQ(e0[0].index, 0u);
    EXPECT_EQ(e0[0].value, 42u);
    EXPECT_EQ(e0[1].kind, K::Barrier);
    EXPECT_EQ(e0[1].variable, kTraceVariableNone);
    EXPECT_EQ(e0[2].kind, K::Read);
    EXPECT_EQ(e0[2].index, 2u);
    EXPECT_EQ(e0[2].value, 0x3f800000u);
    EXPECT_EQ(e0[4].value, 0xffffffffu);
    EXPECT_EQ(e0[4].index, 7u);
    // A barrier belongs to the round it ends; what follows the k-th barrier is in round k.
    std::vector<uint32_t> rounds0;
    for (const TraceEvent& e : e0)
        rounds0.push_back(e.round);
    EXPECT_EQ(rounds0, (std::vector<uint32_t>{0, 0, 1, 1, 2}));

    const auto& e1 = t.threads[1];
    ASSERT_EQ(e1.size(), 2u);
    EXPECT_EQ(e1[1].kind, K::Atomic);
    EXPECT_EQ(e1[1].line, 6u);
    EXPECT_EQ(e1[1].index, 3u);
    EXPECT_EQ(e1[1].value, 7u);
    EXPECT_EQ(e1[1].extra, 1u);
    EXPECT_EQ(e1[0].round, 0u);
    EXPECT_EQ(e1[1].round, 0u); // rounds are per invocation, not shared with invocation 0

    const auto& e2 = t.threads[2];
    ASSERT_EQ(e2.size(), 2u);
    EXPECT_EQ(e2[0].round, 0u);
    EXPECT_EQ(e2[1].round, 1u);
    EXPECT_EQ(e2[1].value, 4u);
}

TEST(TraceDecode, LargeLinesSurvive) {
    FakeBuffer b(launch({1, 1, 1}, {1, 1, 1}), 2);
    uint32_t maxLine = (1u << kTraceLineBits) - 1;
    b.add(0, TraceEventKind::Read, 254, maxLine, 5);
    auto r = decodeTrace(b.packed(), b.launch, {});
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->threads[0].size(), 1u);
    EXPECT_EQ(r->threads[0][0].line, maxLine);
    EXPECT_EQ(r->threads[0][0].variable, 254u);
    EXPECT_EQ(r->threads[0][0].kind, TraceEventKind::Read);
}

TEST(TraceDecode, CountsAreClampedToTheSlotsAndDroppedComesFromTheCounts) {
    FakeBuffer b(launch({3, 1, 1}, {1, 1, 1}), 2);
    b.add(0, TraceEventKind::Read, 0, 1, 0);
    b.add(0, TraceEventKind::Read, 0, 2, 1);
    b.count(0) = 10; // the kernel counted on past its slots: 8 records did not fit
    b.add(2, TraceEventKind::Read, 0, 1, 0);
    b.add(2, TraceEventKind::Read, 0, 2, 1);
    b.count(2) = 7; // 5 more
    auto r = decodeTrace(b.packed(), b.launch, {});
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->dropped, 13u);
    EXPECT_EQ(r->mostRecordsWanted, 10u);
    EXPECT_EQ(r->slotsPerInvocation, 2u);
    ASSERT_EQ(r->threads[0].size(), 2u);
    EXPECT_EQ(r->threads[0][1].line, 2u);
    EXPECT_TRUE(r->threads[1].empty());
}

// A Repeat record (a poll that read the same value again: rewrite/trace_objects.h) is the event
// before it again, that many times, in the same round, as far as the thread's slots would have
// held them; the rest are counted. One with nothing before it repeats nothing.
TEST(TraceDecode, ARepeatRecordIsTheEventBeforeItAgain) {
    FakeBuffer b(launch({3, 1, 1}, {1, 1, 1}), 6);
    using K = TraceEventKind;
    b.add(0, K::Barrier, kTraceVariableNone, 3);
    b.add(0, K::Read, 0, 4, 2, 77);
    b.add(0, K::Repeat, kTraceVariableNone, 0, 3); // read 3 more times
    b.add(0, K::Write, 0, 5, 2, 78);
    b.add(1, K::Read, 0, 4, 1, 5);
    b.add(1, K::Repeat, kTraceVariableNone, 0, 1000); // past the 6 slots: 5 kept
    b.add(2, K::Repeat, kTraceVariableNone, 0, 9);    // nothing to repeat
    auto r = decodeTrace(b.packed(), b.launch, twoVariables());
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto& t0 = r->threads[0];
    ASSERT_EQ(t0.size(), 6u); // barrier, 4 reads, write
    for (size_t k = 1; k <= 4; ++k) {
        EXPECT_EQ(t0[k].kind, K::Read) << k;
        EXPECT_EQ(t0[k].line, 4u);
        EXPECT_EQ(t0[k].index, 2u);
        EXPECT_EQ(t0[k].value, 77u);
        EXPECT_EQ(t0[k].round, 1u);
    }
    EXPECT_EQ(t0[5].kind, K::Write);
    EXPECT_EQ(r->threads[1].size(), 6u);
    EXPECT_TRUE(r->threads[2].empty());
    EXPECT_EQ(r->foldedRepeats, 1000u - 5u);
    EXPECT_EQ(r->dropped, 0u);
}

TEST(TraceDecode, BudgetStatusWithoutARecordAddsALoopBudgetEvent) {
    FakeBuffer b(launch({2, 1, 1}, {1, 1, 1}), 2, 500);
    // Invocation 0 filled its slots (a barrier, then a read) before the budget ran out.
    b.add(0, TraceEventKind::Barrier, kTraceVariableNone, 3);
    b.add(0, TraceEventKind::Read, 0, 4, 1);
    b.status(0) = kTraceBudgetFlag | 33;
    b.count(0) = 3; // the budget's record did not fit
    auto r = decodeTrace(b.packed(), b.launch, {});
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto& e0 = r->threads[0];
    ASSERT_EQ(e0.size(), 3u); // the two records plus the budget event from the status word
    EXPECT_EQ(e0[2].kind, TraceEventKind::LoopBudget);
    EXPECT_EQ(e0[2].line, 33u);
    EXPECT_EQ(e0[2].value, 500u); // the budget from the header
    EXPECT_EQ(e0[2].round, 1u);   // after the one barrier
    EXPECT_EQ(e0[2].variable, kTraceVariableNone);
    EXPECT_TRUE(r->threads[1].empty()); // status 0: nothing added
}

TEST(TraceDecode, BudgetStatusWithARecordAddsNothing) {
    FakeBuffer b(launch({1, 1, 1}, {1, 1, 1}), 4, 500);
    b.add(0, TraceEventKind::Read, 0, 4, 1);
    b.add(0, TraceEventKind::LoopBudget, kTraceVariableNone, 33, 0, 501);
    b.status(0) = kTraceBudgetFlag | 33;
    auto r = decodeTrace(b.packed(), b.launch, {});
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->threads[0].size(), 2u);
    EXPECT_EQ(r->threads[0][1].kind, TraceEventKind::LoopBudget);
    EXPECT_EQ(r->threads[0][1].value, 501u); // the record's own value, not the header's
}

TEST(TraceDecode, StatusWithoutTheFlagIsIgnored) {
    FakeBuffer b(launch({1, 1, 1}, {1, 1, 1}), 1);
    b.status(0) = 33; // a line but no flag
    auto r = decodeTrace(b.packed(), b.launch, {});
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->threads[0].empty());
}

TEST(TraceDecode, ZeroSlotsDecodesOnlyTheStatus) {
    FakeBuffer b(launch({2, 1, 1}, {1, 1, 1}), 0, 9);
    b.count(1) = 3; // counted but nothing fits
    b.status(1) = kTraceBudgetFlag | 8;
    auto r = decodeTrace(b.packed(), b.launch, {});
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_TRUE(r->threads[0].empty());
    ASSERT_EQ(r->threads[1].size(), 1u);
    EXPECT_EQ(r->threads[1][0].kind, TraceEventKind::LoopBudget);
    EXPECT_EQ(r->threads[1][0].line, 8u);
    EXPECT_EQ(r->threads[1][0].value, 9u);
}

TEST(TraceDecode, TooSmallBufferIsAnError) {
    TraceLaunch l = launch({4, 1, 1}, {2, 1, 1}); // 8 invocations
    FakeBuffer b(l, 2);

    std::vector<uint32_t> empty;
    auto r0 = decodeTrace(empty, l, {});
    ASSERT_FALSE(r0.ok());
    EXPECT_EQ(r0.error().kind, ErrorKind::Internal);

    // Header and counts but not all of the status words.
    std::vector<uint32_t> cut(b.words.begin(), b.words.begin() + kTraceHeaderWords + 8 + 3);
    auto r1 = decodeTrace(cut, l, {});
    ASSERT_FALSE(r1.ok());
    EXPECT_NE(r1.error().message.find("too small"), std::string::npos) << r1.error().message;

    // The buffer of a smaller launch decoded as a bigger one.
    FakeBuffer small(launch({2, 1, 1}, {1, 1, 1}), 2);
    EXPECT_FALSE(decodeTrace(small.packed(), l, {}).ok());
}

TEST(TraceDecode, RecordsPastTheEndAreAnError) {
    FakeBuffer b(launch({2, 1, 1}, {1, 1, 1}), 4);
    b.add(1, TraceEventKind::Read, 0, 1);
    b.add(1, TraceEventKind::Read, 0, 2);
    // Keep the header, counts and status, and only one of invocation 1's two records.
    std::vector<uint32_t> packed = b.packed();
    std::vector<uint32_t> cut(packed.begin(), packed.end() - kTraceRecordWords);
    auto r = decodeTrace(cut, b.launch, {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::Internal);

    // The same buffer with all of its records decodes.
    EXPECT_TRUE(decodeTrace(packed, b.launch, {}).ok());
}

// --- packTraceBuffer -------------------------------------------------------------------------

TEST(TracePack, KeepsTheHeaderCountsStatusAndOnlyTheWrittenRecords) {
    FakeBuffer b(launch({3, 1, 1}, {1, 1, 1}), 4, 77);
    b.add(0, TraceEventKind::Read, 0, 1, 10);
    b.add(2, TraceEventKind::Write, 0, 2, 20);
    b.add(2, TraceEventKind::Read, 0, 3, 21);
    b.status(1) = kTraceBudgetFlag | 5;
    std::vector<uint32_t> p = b.packed();
    uint32_t recordsAt = b.words[5];
    // Three records instead of twelve slots.
    ASSERT_EQ(p.size(), recordsAt + 3 * kTraceRecordWords);
    EXPECT_TRUE(std::equal(p.begin(), p.begin() + recordsAt,
                           b.words.begin())); // header, counts, status as they were
    // Invocation 0's record, then invocation 2's two, with nothing between.
    EXPECT_EQ(p[recordsAt + 1], 10u);
    EXPECT_EQ(p[recordsAt + kTraceRecordWords + 1], 20u);
    EXPECT_EQ(p[recordsAt + 2 * kTraceRecordWords + 1], 21u);
    EXPECT_EQ(p[recordsAt + 2 * kTraceRecordWords], packTraceWord0(TraceEventKind::Read, 0, 3));
    for (uint32_t w : p)
        EXPECT_NE(w, 0xdeadbeefu) << "an unwritten slot was copied";
}

TEST(TracePack, CountsPastTheSlotsCopyTheSlotsOnly) {
    FakeBuffer b(launch({2, 1, 1}, {1, 1, 1}), 2);
    b.add(0, TraceEventKind::Read, 0, 1, 1);
    b.add(0, TraceEventKind::Read, 0, 2, 2);
    b.add(1, TraceEventKind::Read, 0, 3, 3);
    b.count(0) = 1000; // it counted on after its slots were full
    std::vector<uint32_t> p = b.packed();
    ASSERT_EQ(p.size(), b.words[5] + 3 * kTraceRecordWords);
    auto r = decodeTrace(p, b.launch, {});
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->threads[0].size(), 2u);
    ASSERT_EQ(r->threads[1].size(), 1u);
    EXPECT_EQ(r->threads[1][0].index, 3u); // invocation 1's record, not invocation 0's third
}

TEST(TracePack, ABadHeaderOrAShortBufferNeverReadsPastTheEnd) {
    FakeBuffer b(launch({2, 1, 1}, {1, 1, 1}), 4);
    b.add(1, TraceEventKind::Read, 0, 1);
    // Counts that claim more records than the buffer holds: packing stops at the end.
    std::vector<uint32_t> shortBuffer(b.words.begin(),
                                      b.words.begin() + b.words[5] + 5 * kTraceRecordWords);
    b.count(1) = 4;
    shortBuffer[kTraceHeaderWords + 1] = 4;
    std::vector<uint32_t> p = packTraceBuffer(shortBuffer);
    EXPECT_LE(p.size(), shortBuffer.size());
    EXPECT_FALSE(decodeTrace(p, b.launch, {}).ok());
    // A header whose records offset disagrees with its invocation count is passed on short.
    std::vector<uint32_t> bad = b.words;
    bad[5] = 3;
    EXPECT_EQ(packTraceBuffer(bad).size(), kTraceHeaderWords);
    EXPECT_FALSE(decodeTrace(packTraceBuffer(bad), b.launch, {}).ok());
    // Huge slot counts and launch sizes in a garbled header do not overflow into a read.
    bad = b.words;
    bad[1] = 0xffffffffu;
    bad[kTraceHeaderWords] = 0xffffffffu;
    EXPECT_LE(packTraceBuffer(bad).size(), bad.size());
    bad = b.words;
    bad[2] = bad[3] = bad[4] = 0x80000000u;
    EXPECT_EQ(packTraceBuffer(bad).size(), kTraceHeaderWords);
    // Less than a header.
    EXPECT_EQ(packTraceBuffer(std::vector<uint32_t>{1, 2, 3}).size(), 3u);
}

} // namespace
} // namespace vkp
