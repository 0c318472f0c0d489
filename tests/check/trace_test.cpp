// Tracing end to end on a real device: deliberately broken kernels are caught even when their
// outputs happen to be right. That every official solution traces clean and computes what its
// plain run does, and every starter traces without a hazard of its own, is `pack check`'s (the
// content tier: classroom/pack_check.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <optional>
#include <sstream>

#include "check/case_limits.h"
#include "check/check.h"
#include "check/kernel_text.h"
#include "gpu/context.h"
#include "puzzle/puzzle_loader.h"
#include "shader/compiler.h"
#include "support/engines.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

using test::engines;

CheckReport check(const Puzzle& p, const std::string& path, bool trace,
                  std::optional<size_t> onlyCase = std::nullopt,
                  const std::vector<size_t>& someCases = {}) {
    CheckOptions o;
    o.trace = trace;
    o.onlyCase = onlyCase;
    o.someCases = someCases;
    auto src = readTextFile(path);
    return checkKernel(engines().compiler, *engines().gpu, p, src ? *src : "", path, o);
}

std::string findings(const CheckReport& r) {
    std::string s;
    for (const Diagnostic& d : r.diagnostics)
        s += d.str() + "\n";
    if (r.error) s += r.error->str() + "\n";
    for (const CaseOutcome& c : r.cases) {
        s += "case " + std::to_string(c.index + 1) + (c.pass ? " pass" : " FAIL") +
             (c.error ? " " + c.error->message : "") + "\n";
        if (c.analysis && c.dispatches.empty())
            for (const Finding& f : c.analysis->findings)
                s += std::string("  ") + findingKindName(f.kind) + ": " + f.message + "\n";
        for (const DispatchTrace& dispatch : c.dispatches)
            for (const Finding& f : dispatch.analysis->findings)
                s += "  " + dispatch.label + ": " + findingKindName(f.kind) + ": " + f.message +
                     "\n";
    }
    return s;
}

// tests/data/traced/*.comp: "// puzzle: SLUG" and "// expect: FINDING" (a findingKindName),
// "// expect: clean" or "// expect: inconclusive" (its trace does not fit however large);
// "// case: N" checks only case N (1-based), for a kernel too costly to trace on every case;
// "// cases: A-B" cases A to B (a kernel sized for the puzzle's small cases, not its benchmark's).
struct Expectation {
    std::string puzzle, expect;
    std::optional<size_t> onlyCase; // 0-based
    std::vector<size_t> someCases;  // 0-based
};

Expectation expectationOf(const std::string& path) {
    auto src = readTextFile(path);
    Expectation e;
    std::istringstream in(src ? *src : "");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("// puzzle: ", 0) == 0) e.puzzle = line.substr(11);
        if (line.rfind("// expect: ", 0) == 0) e.expect = line.substr(11);
        if (line.rfind("// case: ", 0) == 0) e.onlyCase = std::stoul(line.substr(9)) - 1;
        if (line.rfind("// cases: ", 0) == 0) {
            size_t dash = line.find('-', 10);
            for (size_t c = std::stoul(line.substr(10)); c <= std::stoul(line.substr(dash + 1));
                 ++c)
                e.someCases.push_back(c - 1);
        }
    }
    return e;
}

class BrokenKernel : public ::testing::TestWithParam<std::string> {};

TEST_P(BrokenKernel, TheTraceFindsWhatIsWrong) {
    ASSERT_TRUE(engines().gpu);
    Expectation e = expectationOf(GetParam());
    ASSERT_FALSE(e.puzzle.empty());
    ASSERT_FALSE(e.expect.empty());
    auto p = engines().set.find(e.puzzle);
    ASSERT_TRUE(p.ok());
    CheckReport r = check(**p, GetParam(), true, e.onlyCase, e.someCases);
    ASSERT_EQ(r.reached, StageKind::Done) << findings(r);
    if (e.expect == "clean") {
        EXPECT_TRUE(r.allPass()) << findings(r);
        return;
    }
    if (e.expect == "inconclusive") { // the trace cannot hold it: no pass, and the finding says why
        bool inconclusive = false;
        for (const CaseOutcome& c : r.cases) {
            inconclusive |= c.inconclusive;
            if (c.inconclusive) {
                EXPECT_FALSE(c.pass);
            }
        }
        EXPECT_TRUE(inconclusive) << findings(r);
        EXPECT_FALSE(r.allPass());
        return;
    }
    bool found = false;
    for (const CaseOutcome& c : r.cases)
        for (const Finding& f : c.analysis->findings)
            found |= e.expect == findingKindName(f.kind) && f.line > 0;
    EXPECT_TRUE(found) << "expected a '" << e.expect << "' finding with a line\n" << findings(r);
    EXPECT_FALSE(r.allPass());
}

INSTANTIATE_TEST_SUITE_P(Traced, BrokenKernel, ::testing::ValuesIn(test::kernelFiles("traced")),
                         [](const auto& info) { return test::paramName(info.param); });

// The pitfall of the anchors: a missing barrier whose output is right anyway (threads of a small
// workgroup run in lock-step on lavapipe) must still fail, because of what the trace shows.
TEST(TraceVerdict, MissingBarrierFailsEvenWhenTheOutputIsRight) {
    ASSERT_TRUE(engines().gpu);
    for (const char* name : {"pooling-missing-barrier.comp", "block-sum-missing-barrier.comp"}) {
        std::string path = test::sourceDir() + "/tests/data/traced/" + name;
        auto p = engines().set.find(expectationOf(path).puzzle);
        ASSERT_TRUE(p.ok());
        CheckReport r = check(**p, path, true);
        bool rightButRacy = false;
        for (const CaseOutcome& c : r.cases) {
            // One element has no neighbour to race with (pooling's n = 1 case).
            const auto& input = (*p)->cases[c.index].data[*(*p)->firstInput()];
            if (input && input->shape.count() < 2) continue;
            bool race = false;
            for (const Finding& f : c.analysis->findings)
                race |= f.kind == FindingKind::SharedRace;
            EXPECT_TRUE(race) << name << " case " << c.index + 1 << "\n" << findings(r);
            EXPECT_FALSE(c.pass);
            rightButRacy |= c.outputsMatch && race;
        }
        if (engines().gpu->info().subgroupSize >= 8) {
            EXPECT_TRUE(rightButRacy)
                << name << ": expected some case whose output is right despite the race";
        }
    }
}

} // namespace
} // namespace vkp

namespace vkp {
namespace {

TEST(TraceCapacity, AnOverflowedCaseIsRerunWithRoomForEveryRecord) {
    ASSERT_TRUE(engines().gpu);
    auto p = engines().set.find("matmul");
    ASSERT_TRUE(p.ok());
    CheckOptions o;
    o.trace = true;
    o.traceRecords = 1; // clamped to the minimum of 16 records per thread: far too few for matmul
    auto src = readTextFile((*p)->solutionPath);
    CheckReport r = checkKernel(engines().compiler, *engines().gpu, **p, *src, "solution.comp", o);
    ASSERT_EQ(r.reached, StageKind::Done) << findings(r);
    EXPECT_TRUE(r.allPass()) << findings(r);
    bool rerun = false;
    for (const CaseOutcome& c : r.cases) {
        ASSERT_TRUE(c.analysis);
        EXPECT_TRUE(c.outputsMatch) << "tracing must not change the results";
        EXPECT_EQ(c.trace->dropped, 0u) << "case " << c.index + 1 << "\n" << findings(r);
        for (const Finding& f : c.analysis->findings)
            EXPECT_NE(f.kind, FindingKind::TraceOverflow) << f.message;
        // The re-run's slots: what the busiest thread wanted and half again, so every thread fits.
        if (c.trace->slotsPerInvocation > 16) rerun = true;
        for (const auto& events : c.trace->threads)
            EXPECT_LE(events.size(), c.trace->slotsPerInvocation + 1u);
        EXPECT_LE(c.trace->mostRecordsWanted, c.trace->slotsPerInvocation);
    }
    EXPECT_TRUE(rerun) << findings(r);
    EXPECT_GT(r.timing.traceRerunMs, 0.0);
}

// A thread that reads one cell of a volatile buffer again and again, the same value each time (a
// look-back's poll, here 300 reads a thread), takes two records however long it polls: the read
// and a Repeat record with the count. The events come back, as many as the thread's slots hold;
// the rest are counted. Without `volatile` every read is a record of its own.
TEST(TraceCapacity, APollOfAVolatileBufferTakesTwoRecordsHoweverLong) {
    ASSERT_TRUE(engines().gpu);
    auto p = engines().set.find("block-sum");
    ASSERT_TRUE(p.ok());
    const std::string path = test::sourceDir() + "/tests/data/traced/block-sum-polls-volatile.comp";
    auto src = readTextFile(path);
    ASSERT_TRUE(src.ok());
    uint32_t pollLine = 0, n = 0;
    std::istringstream lines(*src);
    for (std::string l; std::getline(lines, l);)
        if (++n && l.find("v = i < uint(a.length())") != std::string::npos) pollLine = n;
    ASSERT_NE(pollLine, 0u);
    CheckOptions o;
    o.trace = true;
    o.onlyCase = 0; // one workgroup of 8, a = 0..7
    CheckReport r = checkKernel(engines().compiler, *engines().gpu, **p, *src, path, o);
    ASSERT_EQ(r.reached, StageKind::Done) << findings(r);
    // The polls are reads all the same: block-sum allows one a thread.
    EXPECT_TRUE(r.cases.at(0).outputsMatch) << findings(r);
    EXPECT_NE(findings(r).find("thread 0 makes 300 global reads"), std::string::npos)
        << findings(r);
    const Trace& t = *r.cases.at(0).trace;
    EXPECT_EQ(t.dropped, 0u);
    // Two records for the 300 reads, and the tree's accesses and barriers.
    EXPECT_LE(t.mostRecordsWanted, 24u);
    uint64_t folded = 0;
    for (size_t thread = 0; thread < t.threads.size(); ++thread) {
        std::vector<TraceEvent> reads;
        for (const TraceEvent& e : t.threads[thread])
            if (e.line == pollLine && e.kind == TraceEventKind::Read) reads.push_back(e);
        uint32_t kept = std::min(300u, t.slotsPerInvocation);
        ASSERT_EQ(reads.size(), kept) << "thread " << thread;
        for (const TraceEvent& e : reads) {
            EXPECT_EQ(e.index, thread);
            EXPECT_EQ(e.value, std::bit_cast<uint32_t>(float(thread)));
        }
        folded += 300 - kept;
    }
    EXPECT_EQ(t.foldedRepeats, folded);

    std::string plain = *src;
    plain.replace(plain.find("readonly volatile buffer"), 24, "readonly buffer");
    CheckReport q = checkKernel(engines().compiler, *engines().gpu, **p, plain, path, o);
    ASSERT_EQ(q.reached, StageKind::Done) << findings(q);
    EXPECT_GE(q.cases.at(0).trace->mostRecordsWanted, 300u);
}

TEST(TraceCapacity, ATraceThatCannotFitIsInconclusiveNotAPass) {
    ASSERT_TRUE(engines().gpu);
    auto p = engines().set.find("matmul");
    ASSERT_TRUE(p.ok());
    CheckOptions o;
    o.trace = true;
    o.traceRecords = 1;     // 16 records per thread at first
    o.maxTraceBytes = 4096; // and no room for a larger trace
    auto src = readTextFile((*p)->solutionPath);
    CheckReport r = checkKernel(engines().compiler, *engines().gpu, **p, *src, "solution.comp", o);
    ASSERT_EQ(r.reached, StageKind::Done) << findings(r);
    EXPECT_FALSE(r.allPass()) << "an incomplete trace must not pass\n" << findings(r);
    size_t inconclusive = 0;
    for (const CaseOutcome& c : r.cases) {
        ASSERT_TRUE(c.analysis);
        EXPECT_TRUE(c.outputsMatch) << "tracing must not change the results";
        if (c.trace->dropped == 0) { // a small case: it fit at first, or in 4 KiB when re-run
            EXPECT_TRUE(c.pass) << findings(r);
            continue;
        }
        ++inconclusive;
        EXPECT_FALSE(c.pass);
        EXPECT_TRUE(c.inconclusive) << findings(r);
        EXPECT_EQ(c.trace->slotsPerInvocation, 16u) << "no re-run: it could not fit";
        for (const auto& events : c.trace->threads)
            EXPECT_LE(events.size(), 17u); // 16 + a budget note at most
        const Finding* why = nullptr;
        for (const Finding& f : c.analysis->findings)
            if (f.kind == FindingKind::TraceOverflow) why = &f;
        ASSERT_TRUE(why) << findings(r);
        EXPECT_TRUE(why->failsCase);
        std::string head = "the trace of case " + std::to_string(c.index + 1) + " did not fit (" +
                           std::to_string(c.trace->mostRecordsWanted) +
                           " records per thread needed, ";
        EXPECT_EQ(why->message.rfind(head, 0), 0u) << why->message;
        EXPECT_NE(why->message.find("--no-trace"), std::string::npos) << why->message;
    }
    EXPECT_GT(inconclusive, 0u) << findings(r);
}

} // namespace
} // namespace vkp

namespace vkp {
namespace {

// Barrier rounds are workgroup rounds: barrier() starts a new one, subgroupBarrier() (which only
// makes one subgroup's lanes meet) must not, or every thread would seem to pass barriers that
// threads of other subgroups never reach.
TEST(TraceRounds, OnlyWorkgroupBarriersEndARound) {
    ASSERT_TRUE(engines().gpu);
    auto p = engines().set.find("map");
    ASSERT_TRUE(p.ok());
    auto src = readTextFile((*p)->solutionPath);
    ASSERT_TRUE(src);
    auto withBarrier = [&](const std::string& call) {
        std::string s = *src;
        s.insert(s.find("#version 450\n") + 13,
                 "#extension GL_KHR_shader_subgroup_basic : require\n");
        s.replace(s.find("    result[i] ="), 0, "    " + call + "\n");
        CheckOptions o;
        o.trace = true;
        return checkKernel(engines().compiler, *engines().gpu, **p, s, "map-barrier.comp", o);
    };
    auto barriersSeen = [](const CheckReport& r) {
        size_t n = 0, rounds = 0;
        for (const CaseOutcome& c : r.cases)
            for (const auto& events : c.trace->threads)
                for (const TraceEvent& e : events) {
                    n += e.kind == TraceEventKind::Barrier;
                    rounds = std::max<size_t>(rounds, e.round);
                }
        return std::pair(n, rounds);
    };
    CheckReport sub = withBarrier("subgroupBarrier();");
    ASSERT_TRUE(sub.allPass()) << findings(sub);
    EXPECT_EQ(barriersSeen(sub).first, 0u);
    EXPECT_EQ(barriersSeen(sub).second, 0u);
    CheckReport wg = withBarrier("barrier();");
    ASSERT_TRUE(wg.allPass()) << findings(wg);
    EXPECT_GT(barriersSeen(wg).first, 0u);
    EXPECT_EQ(barriersSeen(wg).second, 1u) << "the write after the barrier is in round 1";
}

// The bytes one dispatch's trace takes with room for `slots` records a thread.
uint64_t traceBytes(const Trace& t, uint64_t slots) {
    return traceBufferWords(t.launch, slots) * 4;
}

// scan-blocks' official solution and its largest case: a multi-pass case whose every dispatch is
// traced.
struct ProgramCase {
    const Puzzle* puzzle;
    std::vector<KernelSource> sources;
    size_t index;
};
ProgramCase largestScanBlocksCase() {
    auto p = engines().set.find("scan-blocks");
    if (!p) throw std::runtime_error(p.error().message);
    auto sources = readKernelSources(**p, true);
    if (!sources) throw std::runtime_error(sources.error().message);
    return {*p, *sources, (*p)->cases.size() - 1};
}

// A multi-pass case whose dispatches' traces each fit in the largest trace a case may take, but
// not all together: it is traced in parts (a run per part of its dispatches) and passes; with
// room for less than its largest dispatch, only that dispatch's trace is said not to fit.
TEST(TraceCapacity, AMultiPassCaseIsTracedInPartsAndOnlyADispatchThatCannotFitSaysSo) {
    ASSERT_TRUE(engines().gpu);
    const auto [puzzle, sources, theCase] = largestScanBlocksCase();
    CheckOptions o;
    o.trace = true;
    o.onlyCase = theCase;
    CheckReport whole = checkProgram(engines().compiler, *engines().gpu, *puzzle, sources, o);
    ASSERT_EQ(whole.cases.size(), 1u);
    ASSERT_TRUE(whole.cases[0].pass) << findings(whole);
    const std::vector<DispatchTrace>& wholeDispatches = whole.cases[0].dispatches;
    ASSERT_GE(wholeDispatches.size(), 2u);
    uint64_t largest = 0, sum = 0;
    size_t largestAt = 0;
    for (size_t j = 0; j < wholeDispatches.size(); ++j) {
        uint64_t b =
            traceBytes(*wholeDispatches[j].trace, wholeDispatches[j].trace->mostRecordsWanted);
        if (b > largest) largestAt = j;
        largest = std::max(largest, b);
        sum += b;
    }
    ASSERT_GT(sum, largest) << "needs two dispatches with traces";

    o.traceRecords = 1;        // 16 records a thread at first: every dispatch overflows
    o.maxTraceBytes = largest; // room for the largest alone, not for all together
    CheckReport parts = checkProgram(engines().compiler, *engines().gpu, *puzzle, sources, o);
    ASSERT_EQ(parts.cases.size(), 1u);
    const CaseOutcome& c = parts.cases[0];
    EXPECT_TRUE(c.pass) << findings(parts);
    EXPECT_FALSE(c.inconclusive) << findings(parts);
    EXPECT_GT(parts.timing.traceRerunMs, 0.0);
    // No run held more trace than allowed: the dispatches went in parts, a run each.
    EXPECT_GE(parts.timing.traceReruns, 2u);
    EXPECT_LE(parts.timing.traceReruns, wholeDispatches.size());
    for (const DispatchTrace& dispatch : c.dispatches)
        EXPECT_EQ(dispatch.trace->dropped, 0u) << dispatch.label << "\n" << findings(parts);

    o.maxTraceBytes = largest - 4096; // now the largest dispatch cannot fit
    CheckReport short_ = checkProgram(engines().compiler, *engines().gpu, *puzzle, sources, o);
    ASSERT_EQ(short_.cases.size(), 1u);
    const CaseOutcome& s = short_.cases[0];
    EXPECT_FALSE(s.pass);
    EXPECT_TRUE(s.inconclusive) << findings(short_);
    for (size_t j = 0; j < s.dispatches.size(); ++j) {
        const DispatchTrace& dispatch = s.dispatches[j];
        bool said = false;
        for (const Finding& f : dispatch.analysis->findings)
            if (f.kind == FindingKind::TraceOverflow && f.failsCase) {
                said = true;
                EXPECT_NE(f.message.find(" in " + dispatch.label + " did not fit"),
                          std::string::npos)
                    << f.message;
            }
        if (traceBytes(*wholeDispatches[j].trace, wholeDispatches[j].trace->mostRecordsWanted) >
            o.maxTraceBytes)
            EXPECT_TRUE(said) << dispatch.label << "\n" << findings(short_);
        else
            EXPECT_FALSE(said) << dispatch.label << " fits, and is not blamed\n"
                               << findings(short_);
    }
    EXPECT_EQ(s.analysis, s.dispatches[largestAt].analysis)
        << "the case shows the dispatch at fault";
}

// A case whose threads make more records than the default room holds overflows and runs again in
// every check. With a TraceRoomMemory (the app's live loop keeps one per puzzle) the next check
// of the case starts with the room the last one needed: no run again, the same verdict, the whole
// trace. The memory forgets a case that fits the default again, a room for another launch is
// not used, and a case traced in parts is not remembered (its room does not fit one run).
TEST(TraceCapacity, ALaterCheckStartsWithTheRoomAnEarlierCheckNeeded) {
    ASSERT_TRUE(engines().gpu);
    const auto [puzzle, sources, theCase] = largestScanBlocksCase();
    TraceRoomMemory memory;
    CheckOptions o;
    o.trace = true;
    o.onlyCase = theCase;
    o.traceRecords = 1; // 16 records a thread: every dispatch overflows the default
    o.traceRoom = &memory;
    auto check = [&] {
        return checkProgram(engines().compiler, *engines().gpu, *puzzle, sources, o);
    };
    auto whole = [](const CheckReport& r) {
        for (const DispatchTrace& d : r.cases.at(0).dispatches)
            if (d.trace->dropped) return false;
        return !r.cases.at(0).dispatches.empty();
    };

    CheckReport first = check();
    ASSERT_EQ(first.cases.size(), 1u);
    EXPECT_TRUE(first.cases[0].pass) << findings(first);
    EXPECT_GE(first.timing.traceReruns, 1u);
    ASSERT_EQ(memory.cases.count(theCase), 1u) << "the room it needed is remembered";
    const TraceRoomMemory::Room room = memory.cases.at(theCase);
    ASSERT_EQ(room.slots.size(), first.cases[0].dispatches.size());

    CheckReport second = check();
    ASSERT_EQ(second.cases.size(), 1u);
    EXPECT_TRUE(second.cases[0].pass) << findings(second);
    EXPECT_EQ(second.timing.traceReruns, 0u) << "started with the room: nothing to run again";
    EXPECT_TRUE(whole(second));
    for (size_t j = 0; j < room.slots.size(); ++j)
        EXPECT_EQ(second.cases[0].dispatches[j].trace->slotsPerInvocation, room.slots[j]);
    EXPECT_EQ(memory.cases.at(theCase).slots, room.slots);

    // A room kept for another launch of the case (other threads) is not used.
    memory.cases.at(theCase).invocations.assign(room.invocations.size(), 3);
    CheckReport other = check();
    EXPECT_GE(other.timing.traceReruns, 1u);
    EXPECT_TRUE(other.cases.at(0).pass) << findings(other);
    EXPECT_EQ(memory.cases.at(theCase).invocations, room.invocations) << "remembered anew";

    // The default room holds it again: forgotten.
    o.traceRecords = CheckOptions{}.traceRecords;
    CheckReport roomy = check();
    EXPECT_EQ(roomy.timing.traceReruns, 0u);
    EXPECT_TRUE(whole(roomy));
    EXPECT_EQ(memory.cases.count(theCase), 0u);

    // Traced in parts (the dispatches' rooms do not fit one run together): not remembered.
    uint64_t largest = 0;
    for (const DispatchTrace& d : first.cases[0].dispatches)
        largest = std::max(largest, traceBytes(*d.trace, d.trace->mostRecordsWanted));
    o.traceRecords = 1;
    o.maxTraceBytes = largest;
    CheckReport parts = check();
    EXPECT_TRUE(parts.cases.at(0).pass) << findings(parts);
    EXPECT_GE(parts.timing.traceReruns, 2u);
    EXPECT_EQ(memory.cases.count(theCase), 0u);
}

} // namespace
} // namespace vkp
