#include "check/check.h"

#include <algorithm>
#include <chrono>

#include "base/parallel.h"
#include "check/case_limits.h"
#include "check/case_schedules.h"
#include "check/compile_stage.h"
#include "check/trace_rerun.h"
#include "gpu/context.h"
#include "gpu/device_runner.h"
#include "gpu/kernel.h"
#include "judge/statement_rules.h"
#include "puzzle/passes.h"
#include "reference/reference_ops.h"
#include "rewrite/instrument.h"
#include "rewrite/rewriter.h"
#include "shader/reflect.h"

namespace vkp {
namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

LaunchSpec launchOf(const TestCase& c) {
    return {c.workgroupSize, c.workgroups, c.constants};
}

std::vector<size_t> selectedCases(const Puzzle& puzzle, const CheckOptions& options) {
    if (options.onlyCase) return {*options.onlyCase};
    if (!options.someCases.empty()) return options.someCases;
    std::vector<size_t> all(puzzle.cases.size());
    for (size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    return all;
}

class Checker {
  public:
    Checker(const Puzzle& p, DeviceRunner& runner, CheckReport& r, const CheckOptions& o,
            std::vector<CompiledKernel>& k, Clock::time_point start)
        : m_puzzle(p), m_runner(runner), m_report(r), m_options(o), m_kernels(k), m_start(start) {}

    void run() {
        std::vector<size_t> cases = selectedCases(m_puzzle, m_options);
        m_report.lanes =
            m_options.emulatedLanes ? m_options.emulatedLanes : m_runner.info().subgroupSize;
        if (auto d = unsupportedUse(m_kernels, m_runner.info())) {
            m_report.diagnostics.push_back(*d); // at its line, in the editor and in `check`
            return fail(Error{ErrorKind::Device,
                              m_runner.info().name + " does not support what the kernel uses" +
                                  (d->line ? " (line " + std::to_string(d->line) + ")" : "") +
                                  ": it was not run"});
        }
        if (auto s = checkSharedMemory(m_puzzle, m_kernels, cases, m_runner.info()); !s)
            return fail(s.error());
        // Before any data is generated.
        if (auto s = checkBufferSizes(m_puzzle, cases, m_options, m_runner.info()); !s)
            return fail(s.error());
        if (!m_options.trace && (m_options.loopGuard || m_options.reverseAtomics))
            if (auto s = guardKernels(); !s) return fail(s.error());
        for (CompiledKernel& k : m_kernels) {
            std::vector<Rewriter> pipeline;
            if (m_options.emulatedLanes)
                pipeline.push_back(
                    emulationRewriter(m_options.emulatedLanes, m_runner.info().subgroupSize));
            appendDeviceRewriters(pipeline, m_runner.info());
            pipeline.push_back(rolledLoopsRewriter()); // checked, not timed: loops stay loops
            RewriteState state;
            auto rewritten = runRewriters(k.spirv, pipeline, state);
            if (!rewritten) return fail(rewritten.error());
            k.spirv = std::move(*rewritten);
        }
        DeviceJob job;
        job.spirv = m_kernels[0].spirv;
        for (size_t k = 1; k < m_kernels.size(); ++k)
            job.moreKernels.push_back(m_kernels[k].spirv);
        for (const CompiledKernel& k : m_kernels)
            job.pushBytes = std::max(job.pushBytes, k.iface.pushBytes);
        for (const BufferDecl& b : m_puzzle.buffers)
            job.bindings.push_back(b.binding);
        if (m_options.trace || guarded())
            job.otherSets.push_back(
                {m_kernels[0].layout.traceSet, m_kernels[0].layout.traceBinding});
        job.timeoutMs = m_options.timeoutMs;
        // A budget given for the cases bounds their compiling too (DeviceJob).
        job.pipelineTimeoutMs = m_options.timeoutMs;
        job.compileInCaseBudget = m_options.timeoutMs > 0;
        job.testCrash = m_options.testCrashWorker;
        m_report.reached = StageKind::Pipeline;
        runCases(job, cases);
        bool allRan = std::all_of(m_report.cases.begin(), m_report.cases.end(),
                                  [](const CaseOutcome& c) { return !c.error; });
        if (!m_report.error && allRan && !m_report.cases.empty())
            m_report.reached = StageKind::Done;
    }

  private:
    void fail(Error e) { m_report.error = std::move(e); }
    bool guarded() const { return !m_options.trace && m_options.loopGuard && m_guarded; }

    // Untraced: only the back-edge counter, so a loop the driver would cut off is reported, and
    // the shared arrays' bounds, so a write past one cannot corrupt the worker. A program with
    // neither loops nor shared arrays runs as written (the guard costs pipeline build time). The
    // run with atomics in reverse lane order has them rewritten first.
    Status guardKernels() {
        auto t = Clock::now();
        std::vector<InstrumentResult> out;
        uint32_t rewrites = 0;
        for (CompiledKernel& k : m_kernels) {
            RewriteState state;
            if (m_options.reverseAtomics) { // check/atomic_order.h
                const Rewriter reverse[] = {reverseAtomicsRewriter()};
                auto reversed = runRewriters(k.spirv, reverse, state);
                if (!reversed) return reversed.error();
                k.spirv = std::move(*reversed);
            }
            if (!m_options.loopGuard) continue;
            InstrumentOptions o;
            o.subgroupLoopCount = m_runner.info().lockstepSubgroups && !m_options.emulatedLanes;
            // Not validated here (2-3 ms a kernel): the rewrite tests validate it.
            const Rewriter guard[] = {guardRewriter(m_options.loopBudget, o)};
            auto guarded = runRewriters(k.spirv, guard, state);
            if (!guarded) return guarded.error();
            rewrites += state.instrumented->loopsGuarded + state.instrumented->sharedIndicesClamped;
            state.instrumented->spirv = std::move(*guarded);
            out.push_back(std::move(*state.instrumented));
        }
        m_guarded = rewrites > 0;
        for (size_t k = 0; m_guarded && k < m_kernels.size(); ++k) {
            m_kernels[k].layout = out[k].layout;
            m_kernels[k].spirv = std::move(out[k].spirv);
        }
        m_report.timing.loopGuardMs = msSince(t);
        return okStatus();
    }

    // Record slots per thread in a traced dispatch (defaultTraceSlots; a re-run of an overflowed
    // case: what its threads wanted, m_rerunSlots; else an earlier check's room, rememberedSlots).
    uint32_t traceSlots(size_t index, size_t dispatch, const TraceLaunch& launch,
                        size_t dispatchCount) const {
        auto it = m_rerunSlots.find(index);
        if (it != m_rerunSlots.end() && dispatch < it->second.size()) return it->second[dispatch];
        uint32_t slots =
            defaultTraceSlots(m_options.traceRecords, launch.invocations(), dispatchCount);
        if (!m_options.traceRoom) return slots;
        return std::max(slots, rememberedSlots(*m_options.traceRoom, index, dispatch,
                                               launch.invocations(), dispatchCount));
    }

    // The launch a case runs with: its shape and constants and, traced, its forced schedule,
    // which is also its pipeline's specialization (the hooks it cannot reach go).
    LaunchSpec launchFor(size_t index) const {
        LaunchSpec launch = launchOf(m_puzzle.cases[index]);
        if (const ScheduleDecl* decl = forcedSchedule(m_puzzle, m_options, index))
            launch.constants[kScheduleConfigSpecId] =
                scheduleConfig(*decl, m_puzzle.buffers[decl->buffer].binding);
        return launch;
    }

    // A case's buffers and dispatches: one per repetition of each pass of a multi-pass puzzle,
    // each with its own trace buffer when tracing.
    Result<RunItem> itemFor(size_t index, const CaseData& data,
                            const std::vector<CaseDispatch>& dispatches,
                            std::vector<std::vector<uint32_t>>& traceWords) {
        RunItem item{launchFor(index), {}, {}};
        bool multi = m_puzzle.multiPass();
        // Inputs are read back too: a kernel that changed one is told so (inputWritten).
        for (size_t b = 0; b < m_puzzle.buffers.size(); ++b)
            item.buffers.push_back({m_puzzle.buffers[b].binding, data.initial[b].words,
                                    multi || m_puzzle.buffers[b].role != RoleKind::Scratch});
        size_t firstTrace = item.buffers.size();
        if (m_options.trace) {
            for (size_t j = 0; j < dispatches.size(); ++j) {
                const CaseDispatch& d = dispatches[j];
                TraceLaunch launch = traceLaunch(index, d);
                uint64_t words = 0;
                traceWords.push_back(makeTraceBuffer(
                    launch, traceSlots(index, j, launch, dispatches.size()), m_options.loopBudget,
                    &words, scheduleBlock(m_puzzle, m_options, index, d, launch)));
                const TraceLayout& layout = m_kernels[d.kernel].layout;
                item.buffers.push_back(
                    {layout.traceBinding, traceWords.back(), true, layout.traceSet, words, true});
            }
        } else if (guarded()) {
            for (const CaseDispatch& d : dispatches) {
                traceWords.push_back(makeLoopGuardBuffer(m_options.loopBudget));
                const TraceLayout& layout = m_kernels[d.kernel].layout;
                item.buffers.push_back(
                    {layout.traceBinding, traceWords.back(), true, layout.traceSet});
            }
        }
        if (!multi) return item;
        for (size_t j = 0; j < dispatches.size(); ++j) {
            const CaseDispatch& d = dispatches[j];
            Dispatch dispatch{static_cast<uint32_t>(d.kernel), d.workgroups,
                              pushConstantWords(m_kernels[d.kernel].iface, d.push),
                              std::vector<int>(item.buffers.size(), -1)};
            for (size_t b : m_puzzle.kernels[d.kernel].buffers)
                dispatch.bind[b] = static_cast<int>(d.bufferAt[b]);
            if (m_options.trace || guarded())
                dispatch.bind[firstTrace + j] = static_cast<int>(firstTrace + j);
            item.dispatches.push_back(std::move(dispatch));
        }
        return item;
    }

    // One case after another, each decided (re-runs included) and handed to onCase before the
    // next runs: the first verdict waits for the first case's pipelines only. The first job also
    // names the later cases' launches, whose pipelines are compiled meanwhile on the other cores
    // (DeviceJob::prebuild, gpu/pipeline_warmer.h).
    void runCases(DeviceJob& job, const std::vector<size_t>& cases) {
        if (auto s = checkLimits(cases); !s) return fail(s.error());
        for (size_t k = 1; k < cases.size(); ++k)
            job.prebuild.push_back(launchFor(cases[k]));
        for (size_t k = 0; k < cases.size(); ++k) {
            if (m_options.stopRequested && m_options.stopRequested()) return; // not Done
            auto ran = runItems(job, {cases[k]});
            job.prebuild.clear();
            if (!ran) return fail(ran.error());
            m_report.reached = StageKind::Run;
            CaseOutcome c = std::move(ran->front());
            // Schedules first: a case run again is then still given room for its whole trace.
            if (m_options.trace) rerunUnforced(job, c);
            if (m_options.trace) rerunOverflowed(job, c);
            if (m_options.trace && m_options.traceRoom)
                rememberRoom(*m_options.traceRoom, c, m_options.traceRecords,
                             m_options.maxTraceBytes);
            decided(std::move(c));
            std::optional<Error> stop = m_report.cases.back().error;
            if (stop && stopsTheRest(*stop)) {
                for (size_t rest = k + 1; rest < cases.size(); ++rest)
                    decided(notRun(cases[rest], cases[k], *stop));
                return;
            }
        }
    }

    // Every case's launches against the device's limits before any runs (one job a case would
    // otherwise only find case 5's too-large workgroup after running cases 1 to 4).
    Status checkLimits(const std::vector<size_t>& cases) const {
        for (size_t i : cases) {
            LaunchSpec launch = launchFor(i);
            auto dispatches = caseDispatches(m_puzzle, i);
            if (!dispatches) return dispatches.error();
            for (const CaseDispatch& d : *dispatches) {
                launch.workgroups = d.workgroups;
                if (auto s =
                        checkLaunchLimits(m_runner.info(), launch, "case " + std::to_string(i + 1));
                    !s)
                    return s;
            }
        }
        return okStatus();
    }

    void decided(CaseOutcome c) {
        m_report.cases.push_back(std::move(c));
        if (m_report.timing.firstVerdictMs == 0) m_report.timing.firstVerdictMs = msSince(m_start);
        if (m_options.onCase) m_options.onCase(m_report);
    }

    // A case that did not finish, or lost the device or the worker: the cases after it are not
    // run (each would wait out its own budget, or crash again).
    static bool stopsTheRest(const Error& e) {
        return e.kind == ErrorKind::Timeout || e.kind == ErrorKind::DeviceLost ||
               e.kind == ErrorKind::WorkerCrashed;
    }
    CaseOutcome notRun(size_t index, size_t stopped, const Error& why) const {
        // The worker itself, not the kernel, stopped answering (WorkerRunner's texts).
        bool worker = why.message.find("did not answer") != std::string::npos;
        std::string which = stopped == selectedCases(m_puzzle, m_options).front()
                                ? "the first case"
                                : "case " + std::to_string(stopped + 1);
        std::string text =
            why.kind == ErrorKind::WorkerCrashed
                ? "was not run: the worker process crashed (see " + which + ")"
            : worker ? "was not run: the worker process did not answer (see " + which + ")"
            : why.kind == ErrorKind::DeviceLost
                ? "did not run: the device was lost in an earlier case"
                : "did not run: an earlier case never finished";
        CaseOutcome out;
        out.index = index;
        out.error = Error{why.kind, "case " + std::to_string(index + 1) + " " + text};
        auto data = materializeCase(m_puzzle, index);
        if (data) out.inputs = std::move(data->initial);
        return out;
    }

    Result<std::vector<CaseOutcome>> runItems(DeviceJob& job, const std::vector<size_t>& cases) {
        std::vector<CaseData> data;
        std::vector<std::vector<CaseDispatch>> dispatches;
        std::vector<RunItem> items;
        std::vector<std::vector<uint32_t>> traceWords;
        size_t traceCount = 0;
        for (size_t i : cases) {
            auto d = materializeCase(m_puzzle, i);
            if (!d) return d.error();
            auto ds = caseDispatches(m_puzzle, i);
            if (!ds) return ds.error();
            traceCount += ds->size();
            data.push_back(std::move(*d));
            dispatches.push_back(std::move(*ds));
        }
        traceWords.reserve(traceCount); // the items' spans point into it
        for (size_t k = 0; k < cases.size(); ++k) {
            auto item = itemFor(cases[k], data[k], dispatches[k], traceWords);
            if (!item) return item.error();
            items.push_back(std::move(*item));
        }
        job.items = std::move(items);
        auto ran = m_runner.run(job);
        if (!ran) return ran.error();
        m_report.timing.pipelineMs += ran->pipelineMs;
        m_report.timing.pipelines += ran->pipelinesBuilt;
        m_report.timing.runMs += ran->runMs;
        auto t = Clock::now();
        std::vector<CaseOutcome> out;
        for (size_t k = 0; k < cases.size(); ++k)
            out.push_back(compare(cases[k], data[k], dispatches[k], ran->items.at(k)));
        m_report.timing.checkMs += msSince(t);
        return out;
    }

    // A case whose trace overflowed is run again alone, with room for every record its threads
    // made, so its verdict rests on the whole run (check/trace_rerun.h). Where the room all
    // its dispatches need together is more than a trace may take, it runs once per part of its
    // dispatches, each part given the room (traced in parts), and the dispatches' traces are
    // gathered from the runs that held them.
    // Polls make a thread's records depend on the device's timing: a dispatch that fit may
    // overflow in the run again, so the case runs again up to kTraceReruns times, every
    // dispatch keeping the most room it was given (and twice what it made when a re-run was
    // short: rerunSlots).
    static constexpr int kTraceReruns = 4;
    void rerunOverflowed(DeviceJob& job, CaseOutcome& c) {
        auto t = Clock::now();
        std::optional<TraceRoom> room = rerunRoom(c);
        std::vector<uint32_t> given;
        bool reran = false;
        for (int attempt = 0; room && !c.error && attempt < kTraceReruns; ++attempt) {
            // Each dispatch gets the room it wants, or as much as it may have: the ones that
            // still cannot fit are judged alone, with every other dispatch's trace whole.
            std::vector<uint32_t> wanted = rerunSlots(c, *room, given);
            bool grows = false;
            for (size_t j = 0; j < wanted.size(); ++j)
                grows = grows || wanted[j] > room->kept[j];
            if (!grows) break;
            reran = true;
            std::vector<std::vector<size_t>> parts = traceParts(c, wanted, m_options.maxTraceBytes);
            std::optional<CaseOutcome> merged;
            for (const std::vector<size_t>& part : parts) {
                std::vector<uint32_t> slots = room->kept;
                for (size_t j : part)
                    slots[j] = wanted[j];
                m_rerunSlots[c.index] = slots;
                auto again = runItems(job, {c.index});
                m_rerunSlots.erase(c.index);
                ++m_report.timing.traceReruns;
                if (!again) {
                    c.error = again.error();
                    break;
                }
                CaseOutcome& ran = again->front();
                if (!merged)
                    merged = std::move(ran);
                else
                    for (size_t j : part)
                        merged->dispatches[j] = std::move(ran.dispatches[j]);
            }
            if (merged && !c.error) {
                if (parts.size() > 1) settleFromDispatches(*merged);
                c = std::move(*merged);
            }
            given = wanted;
            if (!c.error) room = rerunRoom(c); // still short (a kernel that behaves differently)?
        }
        if (reran) m_report.timing.traceRerunMs += msSince(t);
        if (room && !c.error) judgeIncomplete(c, *room);
    }

    // A passing case whose forced schedule did not take place, or may have missed its point (the
    // held workgroup got there after the others had finished: the device ran its workgroups in
    // another order this time; ScheduleReport::mayHaveMissed) is run again, up to
    // kScheduleRetries times (3 were not enough on 2 busy cores: ctest -j2 on Debian 13 left
    // scan-decoupled's by-index hold unforced), so that the schedule the puzzle asks for is tried
    // on every device and a kernel that needs luck to pass is not let through by the order.
    static constexpr int kScheduleRetries = 8;
    void rerunUnforced(DeviceJob& job, CaseOutcome& c) {
        auto unforced = [](const CaseOutcome& c) {
            return c.pass && !c.error && scheduleMayHaveMissed(c);
        };
        for (int attempt = 0; attempt < kScheduleRetries && unforced(c); ++attempt) {
            auto again = runItems(job, {c.index});
            if (!again) {
                c.error = again.error();
                break;
            }
            c = std::move(again->front());
        }
    }

    // What an overflowed case's trace would need; none when it did not overflow, or when a loop
    // budget stopped a thread (an endless loop fills any trace, and fails the case anyway).
    std::optional<TraceRoom> rerunRoom(const CaseOutcome& c) const {
        std::vector<const Trace*> traces = caseTraces(c);
        bool dropped = std::any_of(traces.begin(), traces.end(),
                                   [](const Trace* t) { return t->dropped > 0; });
        if (!dropped || c.error || stoppedByLoopBudget(c)) return std::nullopt;
        TraceRoom room;
        // A dispatch may take the whole room when traced alone (in parts: rerunOverflowed).
        uint64_t limit = m_runner.info().maxStorageBufferRange;
        uint64_t share = m_options.maxTraceBytes;
        if (limit) share = std::min(share, limit);
        for (const Trace* t : traces) {
            uint64_t n = t->launch.invocations(), words = share / 4,
                     fixed = recordsStart(kTraceHeaderWords + 2 * n);
            room.wanted.push_back(std::max(t->mostRecordsWanted, t->slotsPerInvocation));
            room.kept.push_back(t->slotsPerInvocation);
            uint64_t possible = words > fixed ? (words - fixed) / (n * kTraceRecordWords) : 0;
            room.possible.push_back(static_cast<uint32_t>(
                std::clamp<uint64_t>(possible, t->slotsPerInvocation, UINT32_MAX)));
        }
        return room;
    }

    CaseOutcome compare(size_t index, CaseData& data, const std::vector<CaseDispatch>& dispatches,
                        Result<RunOutput>& ran) {
        CaseOutcome out;
        out.index = index;
        if (!ran) {
            out.error = ran.error();
            out.error->message = "case " + std::to_string(index + 1) + " " + out.error->message;
            out.inputs = std::move(data.initial);
            return out;
        }
        out.gpuMs = ran->gpuMs;
        if (ran->gpuMs > 0) m_report.timing.gpuMs += ran->gpuMs;
        out.pass = true;
        if (m_options.trace)
            analyse(out, data, dispatches, ran->buffers);
        else if (guarded())
            readGuards(out, dispatches, ran->buffers);
        std::vector<size_t> at = finalBufferAt(m_puzzle, dispatches);
        for (size_t b = 0; b < m_puzzle.buffers.size(); ++b) {
            if (!data.expected[b]) continue;
            BufferData actual{m_puzzle.buffers[b].type, data.expected[b]->shape,
                              std::move(ran->buffers[at[b]])};
            bool checked = m_puzzle.cases[index].data[b]->kind != DataSpec::Kind::Unchecked;
            BufferComparison v = checked
                                     ? compareBuffers(*data.expected[b], actual, m_puzzle.tolerance)
                                     : BufferComparison{};
            out.pass = out.pass && v.pass;
            if (!v.pass) notePitfalls(out, index, b, data, actual);
            out.outputs.push_back(
                {b, std::move(*data.expected[b]), std::move(actual), std::move(v), checked});
        }
        out.outputsMatch = out.pass;
        for (size_t b = 0; b < m_puzzle.buffers.size(); ++b)
            if (auto f = inputWritten(b, data.initial[b], ran->buffers[at[b]]))
                out.runFindings.push_back(std::move(*f));
        if (out.analysis && out.analysis->failsCase()) out.pass = false;
        if (!out.runFindings.empty()) out.pass = false;
        for (const DispatchTrace& dispatch : out.dispatches)
            if (dispatch.analysis->failsCase()) out.pass = false;
        out.inputs = std::move(data.initial);
        return out;
    }

    // A buffer that a pass or the rounds of a multi-pass puzzle swap with another (ping-pong).
    bool swapped(size_t b) const {
        auto in = [&](const std::optional<std::array<size_t, 2>>& swap) {
            return swap && ((*swap)[0] == b || (*swap)[1] == b);
        };
        for (const PassDecl& p : m_puzzle.passes)
            if (in(p.swap)) return true;
        return in(m_puzzle.laps.swap);
    }

    // An input whose cells changed in the run: the kernel wrote it.
    std::optional<Finding> inputWritten(size_t b, const BufferData& initial,
                                        const std::vector<uint32_t>& after) const {
        const BufferDecl& decl = m_puzzle.buffers[b];
        if (decl.role != RoleKind::Input || after.size() != initial.words.size()) return {};
        if (swapped(b)) return {}; // the passes' working memory: they write it by design
        uint64_t changed = 0, first = 0;
        for (uint64_t i = after.size(); i-- > 0;)
            if (after[i] != initial.words[i]) {
                ++changed;
                first = i;
            }
        if (!changed) return {};
        BufferData now = initial;
        now.words = after;
        Finding f;
        f.kind = FindingKind::InputWritten;
        f.index = first;
        f.message = "the kernel changed its input '" + decl.name +
                    "': " + cellName(decl, initial.shape, first) + " was " + initial.format(first) +
                    ", and is " + now.format(first) + " after the run (" + std::to_string(changed) +
                    (changed == 1 ? " cell" : " cells") +
                    " changed). Inputs are read-only: keep what you compute in an output or "
                    "in shared memory";
        return f;
    }

    // A wrong output that equals a known wrong answer gets the puzzle's explanation.
    void notePitfalls(CaseOutcome& out, size_t index, size_t buffer, const CaseData& data,
                      const BufferData& actual) const {
        const TestCase& c = m_puzzle.cases[index];
        auto names = caseNames(m_puzzle, c, 0);
        ExprVars vars = caseVars(m_puzzle, c, names);
        for (const PitfallDecl& p : m_puzzle.pitfalls) {
            if (p.buffer != buffer) continue;
            std::vector<const BufferData*> args;
            std::vector<Shape> shapes;
            for (size_t a : p.args) {
                args.push_back(&data.initial[a]);
                shapes.push_back(data.initial[a].shape);
            }
            OpParams params;
            for (const auto& [key, e] : p.params)
                params[key] = static_cast<double>(e.evaluate(vars));
            auto shape = referenceOpShape(p.op, shapes, params);
            if (!shape || shape->count() != actual.shape.count()) continue;
            if (referenceOpValueError(p.op, args, params)) continue; // e.g. an index outside
            BufferData wrong = runReferenceOp(p.op, args, params, m_puzzle.buffers[buffer].type);
            wrong.shape = actual.shape;
            if (compareBuffers(wrong, actual, m_puzzle.tolerance).pass)
                out.notes.push_back(p.message);
        }
    }

    TraceLaunch traceLaunch(size_t index, const CaseDispatch& d) const {
        return {m_puzzle.cases[index].workgroupSize, d.workgroups};
    }

    // Names each traced variable with its length in this case (buffers: the data's; shared
    // arrays: from their dimensions and the case's constants).
    std::vector<TraceVariableInfo> variableInfo(size_t index, const CaseData& data,
                                                const TraceLayout& layout) const {
        std::vector<TraceVariableInfo> out;
        for (const TracedVariable& v : layout.variables) {
            TraceVariableInfo info{v};
            if (v.shared) {
                info.length = v.elementWidth;
                for (const SizeExpr& d : v.dims) {
                    info.dims.push_back(d.evaluate(specValues(m_puzzle.cases[index])));
                    info.length *= info.dims.back();
                }
            } else if (const BufferDecl* b = m_puzzle.findBuffer(v.binding); b && v.set == 0) {
                info.puzzleBuffer = static_cast<int>(b - m_puzzle.buffers.data());
                const auto& shapeOf = data.expected[info.puzzleBuffer]
                                          ? data.expected[info.puzzleBuffer]->shape
                                          : data.initial[info.puzzleBuffer].shape;
                info.length = shapeOf.count();
                if (shapeOf.dims.size() == 2) info.dims = shapeOf.dims;
            }
            out.push_back(std::move(info));
        }
        return out;
    }

    void readGuards(CaseOutcome& out, const std::vector<CaseDispatch>& dispatches,
                    const std::vector<std::vector<uint32_t>>& buffers) const {
        size_t firstGuard = m_puzzle.buffers.size();
        for (size_t j = 0; j < dispatches.size(); ++j) {
            auto f =
                loopGuardFinding(buffers.at(firstGuard + j), traceLaunch(out.index, dispatches[j]),
                                 m_kernels[dispatches[j].kernel].layout.siteLines);
            if (!f) continue;
            if (m_puzzle.multiPass())
                f->message = dispatches[j].label(m_puzzle) + ": " + f->message;
            out.runFindings.push_back(std::move(*f));
        }
    }

    void analyse(CaseOutcome& out, const CaseData& data,
                 const std::vector<CaseDispatch>& dispatches,
                 const std::vector<std::vector<uint32_t>>& buffers) {
        auto t = Clock::now();
        size_t firstTrace = m_puzzle.buffers.size();
        CaseChecks checks = caseChecks(m_puzzle, m_puzzle.cases.at(out.index));
        if (!m_options.efficiencyLimits) checks.limits = checks.limits.withoutEfficiency();
        // Each dispatch's trace is decoded and analysed on its own (a radix sort case has 24),
        // on every core; what they say is then gathered in order.
        std::vector<std::optional<Result<Trace>>> traces(dispatches.size());
        std::vector<std::optional<TraceAnalysis>> analyses(dispatches.size());
        parallelFor(dispatches.size(), [&](size_t j) {
            const CaseDispatch& d = dispatches[j];
            const TraceLayout& layout = m_kernels[d.kernel].layout;
            traces[j] = decodeTrace(buffers.at(firstTrace + j), traceLaunch(out.index, d),
                                    variableInfo(out.index, data, layout), layout.printfFormats,
                                    layout.siteLines);
            if (!*traces[j]) return;
            Trace& trace = **traces[j];
            trace.subgroupSize = m_report.lanes; // subgroup barriers order accesses within one
            trace.source = m_kernels[d.kernel].source;
            analyses[j] = analyzeCase(trace, checks);
        });
        for (size_t j = 0; j < dispatches.size(); ++j) {
            const CaseDispatch& d = dispatches[j];
            if (!*traces[j]) {
                out.error = traces[j]->error();
                return;
            }
            auto shared = std::make_shared<const Trace>(std::move(**traces[j]));
            TraceAnalysis analysed = std::move(*analyses[j]);
            readSchedule(m_puzzle, m_options, out, d, shared->launch, buffers.at(firstTrace + j),
                         analysed);
            auto analysis = std::make_shared<const TraceAnalysis>(std::move(analysed));
            if (!out.trace || (!out.analysis->failsCase() && analysis->failsCase())) {
                out.trace = shared;
                out.analysis = analysis;
            }
            if (m_puzzle.multiPass())
                out.dispatches.push_back({d.label(m_puzzle), d.kernel, shared, analysis});
        }
        m_report.timing.analysisMs += msSince(t);
    }

    const Puzzle& m_puzzle;
    DeviceRunner& m_runner;
    CheckReport& m_report;
    const CheckOptions& m_options;
    std::vector<CompiledKernel>& m_kernels;
    Clock::time_point m_start; // of the whole check (compiling included)
    bool m_guarded = false;    // some kernel has a loop or a shared array to guard
    std::map<size_t, std::vector<uint32_t>>
        m_rerunSlots; // case -> slots per dispatch, while re-run
};

} // namespace

CheckReport checkKernel(const Compiler& compiler, GpuContext& gpu, const Puzzle& puzzle,
                        const std::string& source, const std::string& kernelFile,
                        const CheckOptions& options) {
    InProcessRunner runner(gpu);
    return checkKernel(compiler, runner, puzzle, source, kernelFile, options);
}

CheckReport checkKernel(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                        const std::string& source, const std::string& kernelFile,
                        const CheckOptions& options) {
    std::string name = puzzle.kernels.empty() ? "kernel" : puzzle.kernels[0].name;
    return checkProgram(compiler, runner, puzzle, {{name, source, kernelFile}}, options);
}

CheckReport checkProgram(const Compiler& compiler, GpuContext& gpu, const Puzzle& puzzle,
                         const std::vector<KernelSource>& sources, const CheckOptions& options) {
    InProcessRunner runner(gpu);
    return checkProgram(compiler, runner, puzzle, sources, options);
}

CheckReport checkProgram(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                         const std::vector<KernelSource>& sources, const CheckOptions& options) {
    auto start = Clock::now();
    CheckReport r;
    r.kernelFile = sources.empty() ? "" : sources[0].file;
    if (options.onlyCase && *options.onlyCase >= puzzle.cases.size()) {
        r.error = Error{ErrorKind::Usage,
                        "case " + std::to_string(*options.onlyCase + 1) + " does not exist; " +
                            puzzle.slug + " has cases 1 to " + std::to_string(puzzle.cases.size())};
        return r;
    }
    if (auto d = unsupportedExtension(sources, runner.info())) {
        r.diagnostics.push_back(*d); // at the #extension line, in the editor and in `check`
        r.error = Error{ErrorKind::Device, runner.info().name +
                                               " does not support what the kernel enables (line " +
                                               std::to_string(d->line) + "): it was not compiled"};
        return r;
    }
    CheckOptions o = options;
    o.subgroupLoopCount = runner.info().lockstepSubgroups;
    std::vector<CompiledKernel> kernels = compileProgram(compiler, puzzle, sources, o, r);
    if (r.reached != StageKind::Pipeline || r.error) return r;
    if (!r.untraced.empty()) o.trace = false;
    Checker(puzzle, runner, r, o, kernels, start).run();
    r.timing.totalMs = msSince(start);
    return r;
}

void runCompiled(DeviceRunner& runner, const Puzzle& puzzle, std::vector<CompiledKernel> kernels,
                 const CheckOptions& options, CheckReport& report) {
    auto start = Clock::now();
    Checker(puzzle, runner, report, options, kernels, start).run();
    report.timing.totalMs += msSince(start);
}

} // namespace vkp
