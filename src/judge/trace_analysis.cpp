#include "judge/trace_analysis.h"

#include "trace/atomic_ops.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "judge/bounds.h"
#include "judge/efficiency_limits.h"
#include "judge/request_model.h"
#include "judge/statement_rules.h"
#include "trace/forced_schedule.h"

namespace vkp {
namespace {

// Findings of one kind beyond these are counted into the last one's message, not listed.
size_t maxFindings(FindingKind kind) {
    return kind == FindingKind::OutOfBounds ? 4 : 1;
}

bool isShared(const Trace& t, const TraceEvent& e) {
    return e.variable < t.variables.size() && t.variables[e.variable].decl.shared;
}
bool isBuffer(const Trace& t, const TraceEvent& e) {
    return e.variable < t.variables.size() && !t.variables[e.variable].decl.shared;
}
bool reads(const TraceEvent& e) {
    return e.kind == TraceEventKind::Read || e.kind == TraceEventKind::Atomic;
}
bool writes(const TraceEvent& e) {
    return e.kind == TraceEventKind::Write || e.kind == TraceEventKind::Atomic;
}

std::string cell(const Trace& t, uint32_t var, uint32_t index) {
    return traceCellName(t, var, index);
}

// The loop-budget finding, worded the same for a trace and for an untraced run's guard.
Finding loopBudgetFinding(const TraceLaunch& launch, uint64_t invocation, uint32_t line,
                          uint32_t backEdges, uint64_t threads) {
    Finding f{FindingKind::LoopBudget, invocationName(launch, invocation) + " was stopped after " +
                                           std::to_string(backEdges - 1) +
                                           " loop iterations in the loop at line " +
                                           std::to_string(line) + ": an endless loop?"};
    f.line = line;
    f.threads = {invocation};
    f.occurrences = threads;
    if (threads > 1) f.message += " (" + std::to_string(threads) + " threads ran out)";
    return f;
}

std::string lineText(uint32_t line) {
    return line ? " (line " + std::to_string(line) + ")" : "";
}

class Analyzer {
  public:
    Analyzer(const Trace& t, const Limits& l)
        : m_trace(t), m_limits(l), m_atomics(atomicOpsFromSource(t.source)) {}

    TraceAnalysis run() {
        m_analysis.events = m_trace.eventCount();
        m_analysis.limits = m_limits;
        m_analysis.traffic.resize(m_trace.threads.size());
        for (uint32_t v = 0; v < m_trace.variables.size(); ++v)
            m_owners.push_back(cellOwner(m_trace, v));
        countTraffic();
        checkBounds();
        checkLoopBudget();
        checkGlobalWrites();
        checkShuffles();
        uint32_t per = m_trace.launch.invocationsPerGroup();
        bool anyShared = std::any_of(m_trace.variables.begin(), m_trace.variables.end(),
                                     [](const auto& v) { return v.decl.shared; });
        for (uint64_t g = 0; per && g * per < m_trace.threads.size(); ++g) {
            checkBarriers(g);
            if (anyShared) walkRounds(g);
        }
        // Efficiency limits ([limits] global_efficiency ...): judged on the whole trace's requests.
        m_analysis.efficiency = analyzeEfficiency(m_trace);
        for (Finding& f : efficiencyFindings(m_trace, m_analysis.efficiency, m_limits))
            add(std::move(f));
        noteUnlisted();
        if (m_trace.dropped) {
            Finding f{FindingKind::TraceOverflow,
                      std::to_string(m_trace.dropped) + " trace records did not fit (" +
                          std::to_string(m_trace.slotsPerInvocation) +
                          " per thread): the analysis saw only the start of each thread"};
            f.failsCase = false;
            f.occurrences = m_trace.dropped;
            m_analysis.findings.push_back(f);
        }
        return std::move(m_analysis);
    }

  private:
    void add(Finding f) {
        size_t same = std::count_if(m_analysis.findings.begin(), m_analysis.findings.end(),
                                    [&](const Finding& x) { return x.kind == f.kind; });
        if (same < maxFindings(f.kind))
            m_analysis.findings.push_back(std::move(f));
        else
            ++m_unlisted[f.kind];
    }
    void noteUnlisted() {
        for (auto& [listedKind, n] : m_unlisted) {
            FindingKind kind = listedKind; // clang before 16 cannot capture a structured binding
            auto last = std::find_if(m_analysis.findings.rbegin(), m_analysis.findings.rend(),
                                     [&](const Finding& f) { return f.kind == kind; });
            last->message += " (and " + std::to_string(n) + " more like it)";
            last->occurrences += n;
        }
    }

    void countTraffic() {
        std::optional<uint32_t> overRead, overWrite; // line of the first access over the budget
        uint64_t overReadThread = 0, overWriteThread = 0;
        for (uint64_t inv = 0; inv < m_trace.threads.size(); ++inv) {
            ThreadTraffic& tr = m_analysis.traffic[inv];
            for (const TraceEvent& e : m_trace.threads[inv]) {
                // A vector moved whole (`vec4 v = a4[i]`) is one request: its first scalar counts.
                if (!isBuffer(m_trace, e) || continuesVector(e)) continue;
                if (reads(e) && ++tr.globalReads == m_limits.globalReads.value_or(~0u) + 1u &&
                    !overRead) {
                    overRead = e.line;
                    overReadThread = inv;
                }
                if (writes(e) && ++tr.globalWrites == m_limits.globalWrites.value_or(~0u) + 1u &&
                    !overWrite) {
                    overWrite = e.line;
                    overWriteThread = inv;
                }
            }
            if (tr.globalReads > m_analysis.maxReads)
                m_analysis.maxReads = tr.globalReads, m_analysis.maxReadsThread = inv;
            if (tr.globalWrites > m_analysis.maxWrites)
                m_analysis.maxWrites = tr.globalWrites, m_analysis.maxWritesThread = inv;
        }
        if (overRead)
            limitFinding(FindingKind::ReadLimit, "reads", *m_limits.globalReads,
                         m_analysis.maxReads, m_analysis.maxReadsThread, overReadThread, *overRead);
        if (overWrite)
            limitFinding(FindingKind::WriteLimit, "writes", *m_limits.globalWrites,
                         m_analysis.maxWrites, m_analysis.maxWritesThread, overWriteThread,
                         *overWrite);
    }
    void limitFinding(FindingKind kind, const char* what, uint32_t limit, uint32_t most,
                      uint64_t worst, uint64_t first, uint32_t line) {
        uint64_t count = 0;
        for (const ThreadTraffic& tr : m_analysis.traffic)
            count += (kind == FindingKind::ReadLimit ? tr.globalReads : tr.globalWrites) > limit;
        Finding f{kind, invocationName(m_trace.launch, worst) + " makes " + std::to_string(most) +
                            " global " + what + "; the puzzle allows " + allowed(kind, limit) +
                            " per thread (" +
                            (count == 1 ? std::string("the only thread over; it")
                                        : std::to_string(count) + " threads over; " +
                                              invocationName(m_trace.launch, first)) +
                            " went over at line " + std::to_string(line) + ")"};
        f.line = line;
        f.threads = {first, worst};
        f.occurrences = count;
        add(f);
    }

    // "10", or for a limit written as an expression "global_reads = 2 * ceil_div(INNER, TILE),
    // which is 6 in this case".
    std::string allowed(FindingKind kind, uint32_t limit) const {
        bool reads = kind == FindingKind::ReadLimit;
        const std::optional<Expr>& e = reads ? m_limits.globalReadsExpr : m_limits.globalWritesExpr;
        if (!e) return std::to_string(limit);
        return std::string(reads ? "global_reads" : "global_writes") + " = " + e->text() +
               ", which is " + std::to_string(limit) + " in this case,";
    }

    void checkBounds() {
        for (Finding& f : boundsFindings(m_trace))
            add(std::move(f));
    }

    // A value taken from a lane that did not run the shuffle, so what arrived is undefined (Vulkan
    // leaves it so; lavapipe happens to wrap or hand a value): one finding per line.
    // - a lane of the subgroup that was not active there (the device's ballot says so,
    //   kShuffleSourceInactive);
    // - a lane a partly filled subgroup does not have (the workgroup's size is not a multiple of
    //   the subgroup's: its last subgroup ends early);
    // - by an absolute lane (shuffle, xor, broadcast), a lane at or past the subgroup's size: a
    //   kernel that takes the local id for the lane, or a butterfly whose upper lanes are not
    //   guarded, is right on one subgroup size only.
    // Shuffling up past lane 0, or down past the subgroup's last lane, is left alone: scans do,
    // and drop what arrives with a select (`lane >= d ? y : 0`).
    // An undefined value is a finding only where it is used: the thread's trace has an
    // UndefinedUse record (its value, or one computed from it, reached a store, a branch, an
    // index...). A lane that takes a value from a missing partner and drops it is right.
    void checkShuffles() {
        uint32_t size = m_trace.subgroupSize, per = m_trace.launch.invocationsPerGroup();
        if (!size || !per) return;
        std::map<uint32_t, std::pair<uint64_t, Finding>> byLine;
        for (uint64_t inv = 0; inv < m_trace.threads.size(); ++inv) {
            const std::vector<TraceEvent>& events = m_trace.threads[inv];
            auto use = std::find_if(events.begin(), events.end(), [](const TraceEvent& e) {
                return e.kind == TraceEventKind::UndefinedUse;
            });
            // A trace that lost records may have lost the use too: then every undefined value
            // counts, as before anything followed them.
            if (use == events.end() && !m_trace.dropped) continue;
            for (const TraceEvent& e : events) {
                if (e.kind != TraceEventKind::Shuffle) continue;
                auto lane = shuffleSourceLane(m_trace, inv, e);
                if (!lane) continue;
                ShuffleOp op = shuffleOpOf(e.extra);
                uint64_t local = inv % per, first = local - local % size;
                uint64_t lanes = std::min<uint64_t>(size, per - first); // this subgroup's
                bool beyond = *lane < 0 || *lane >= int64_t(size);
                bool missing = !beyond && uint64_t(*lane) >= lanes;
                bool relative = op == ShuffleOp::Up || op == ShuffleOp::Down;
                std::string why;
                if (beyond && !relative)
                    why = "the subgroup has lanes 0 to " + std::to_string(size - 1) + " here (" +
                          std::to_string(size) +
                          " lanes; other devices have 4 to 64): the value is undefined (a "
                          "kernel written for one subgroup size); keep the lanes it takes from "
                          "below gl_SubgroupSize";
                else if (missing)
                    why = "this subgroup has only lanes 0 to " + std::to_string(lanes - 1) +
                          " (the workgroup's " + std::to_string(per) +
                          " threads fill its last subgroup partly): the value is undefined; "
                          "take only from lanes that exist";
                else if (!beyond && shuffleSourceInactive(e.extra))
                    why = "lane " + std::to_string(*lane) +
                          " did not run it (it was not active there): the value is undefined; "
                          "shuffle where every lane it takes from runs too";
                if (why.empty()) continue;
                auto& [count, f] = byLine[e.line];
                if (count++ > 0) continue;
                f = Finding{FindingKind::UndefinedShuffle,
                            invocationName(m_trace.launch, inv) + " takes lane " +
                                std::to_string(*lane) + "'s value by " + shuffleOpName(op) + " " +
                                std::to_string(e.index) + lineText(e.line) + ", but " + why +
                                (use == events.end()
                                     ? std::string()
                                     : "; the value is used" + lineText(use->line))};
                f.line = e.line;
                f.threads = {inv};
            }
        }
        for (auto& [line, counted] : byLine) {
            auto& [count, f] = counted;
            f.occurrences = count;
            if (count > 1) f.message += "; " + std::to_string(count) + " such values at this line";
            add(std::move(f));
        }
    }

    void checkLoopBudget() {
        uint64_t count = 0;
        const TraceEvent* first = nullptr;
        uint64_t firstThread = 0;
        for (uint64_t inv = 0; inv < m_trace.threads.size(); ++inv)
            for (const TraceEvent& e : m_trace.threads[inv]) {
                if (e.kind != TraceEventKind::LoopBudget) continue;
                if (count++ == 0) {
                    first = &e;
                    firstThread = inv;
                }
            }
        if (first)
            add(loopBudgetFinding(m_trace.launch, firstThread, first->line, first->value, count));
    }

    // Two writes of one cell (any threads), and a read of a cell that another workgroup writes:
    // workgroups run in no set order and nothing but atomics passes values between them within a
    // dispatch, so what such a read finds depends on which workgroup ran first.
    void checkGlobalWrites() {
        struct Writer {
            uint64_t invocation;
            uint32_t line;
        };
        std::unordered_map<uint64_t, Writer> writer; // (var, index) -> first writing invocation
        // (var, index) -> a writer in another workgroup than the first writer's
        std::unordered_map<uint64_t, Writer> otherGroup;
        std::set<uint64_t> reported;
        uint32_t per = m_trace.launch.invocationsPerGroup();
        auto group = [per](uint64_t inv) { return per ? inv / per : 0; };
        for (uint64_t inv = 0; inv < m_trace.threads.size(); ++inv) {
            bool vectorReported = false; // a vector store is one finding, not one per scalar
            for (const TraceEvent& e : m_trace.threads[inv]) {
                if (e.kind != TraceEventKind::Write || !isBuffer(m_trace, e)) continue;
                if (!continuesVector(e)) vectorReported = false;
                uint64_t key = cellKey(e);
                auto [it, fresh] = writer.try_emplace(key, Writer{inv, e.line});
                if (!fresh && group(it->second.invocation) != group(inv))
                    otherGroup.try_emplace(key, Writer{inv, e.line});
                if (fresh || it->second.invocation == inv || !reported.insert(key).second ||
                    std::exchange(vectorReported, true))
                    continue;
                Finding f{FindingKind::GlobalWriteConflict,
                          invocationName(m_trace.launch, it->second.invocation) + " and " +
                              invocationName(m_trace.launch, inv) + " both write " +
                              cell(m_trace, e.variable, e.index) + lineText(e.line) +
                              ": which value remains is up to the GPU"};
                f.line = e.line;
                f.threads = {it->second.invocation, inv};
                f.variable = static_cast<int>(e.variable);
                f.index = e.index;
                add(f);
            }
        }
        if (writer.empty()) return;
        // A workgroup that makes atomics on buffers may be synchronised with the writers (a flag
        // published with release semantics and read with acquire, as a decoupled look-back or a
        // last-workgroup reduction does): its reads are not judged here.
        std::vector<bool> synchronising(group(m_trace.threads.size()) + 1, false);
        for (uint64_t inv = 0; inv < m_trace.threads.size(); ++inv)
            for (const TraceEvent& e : m_trace.threads[inv])
                if (e.kind == TraceEventKind::Atomic && isBuffer(m_trace, e)) {
                    synchronising[group(inv)] = true;
                    break;
                }
        std::set<uint64_t> raced;
        for (uint64_t inv = 0; inv < m_trace.threads.size(); ++inv) {
            bool vectorReported = false;
            for (const TraceEvent& e : m_trace.threads[inv]) {
                if (e.kind != TraceEventKind::Read || !isBuffer(m_trace, e)) continue;
                if (synchronising[group(inv)]) break;
                if (!continuesVector(e)) vectorReported = false;
                uint64_t key = cellKey(e);
                auto w = writer.find(key);
                if (w == writer.end()) continue;
                Writer by = w->second;
                if (group(by.invocation) == group(inv)) {
                    auto second = otherGroup.find(key);
                    if (second == otherGroup.end()) continue;
                    by = second->second;
                }
                if (!raced.insert(key).second || std::exchange(vectorReported, true)) continue;
                Finding f{FindingKind::GlobalRace,
                          invocationName(m_trace.launch, inv) + " reads " +
                              cell(m_trace, e.variable, e.index) + lineText(e.line) + ", which " +
                              invocationName(m_trace.launch, by.invocation) + " writes" +
                              lineText(by.line) +
                              " in the same dispatch: workgroups run in no set order, so what "
                              "the read finds depends on which runs first"};
                f.line = e.line;
                f.threads = {inv, by.invocation};
                f.variable = static_cast<int>(e.variable);
                f.index = e.index;
                add(f);
            }
        }
    }
    // A buffer cell, the same through every view of its binding (a float and a vec4 view).
    uint64_t cellKey(const TraceEvent& e) const {
        return (uint64_t(m_owners[e.variable]) << 32) | e.index;
    }

    // The lines of the barriers a thread reached, in order.
    static std::vector<uint32_t> barrierSites(const std::vector<TraceEvent>& events) {
        std::vector<uint32_t> sites;
        for (const TraceEvent& e : events)
            if (e.kind == TraceEventKind::Barrier) sites.push_back(e.line);
        return sites;
    }

    // Threads of a workgroup must reach the same barriers, in the same order, as many times: a
    // barrier is judged where it stands, not only counted. `barrier()` in both branches of an if
    // whose condition differs between threads is two barriers (GLSL asks for a barrier in control
    // flow uniform across the workgroup): threads counting the same number of them is no sign
    // that they met. Barriers are told apart by line: two on one line are one site here.
    void checkBarriers(uint64_t g) {
        if (m_trace.dropped) return; // a thread whose records were dropped may look short
        uint32_t per = m_trace.launch.invocationsPerGroup();
        uint64_t first = g * per, end = std::min<uint64_t>(first + per, m_trace.threads.size());
        // Threads stopped by the loop budget end early: they are no evidence of divergence.
        std::optional<std::pair<uint64_t, uint32_t>> ref;
        std::vector<uint32_t> refSites;
        for (uint64_t inv = first; inv < end; ++inv) {
            const auto& ev = m_trace.threads[inv];
            if (std::any_of(ev.begin(), ev.end(), [](const TraceEvent& e) {
                    return e.kind == TraceEventKind::LoopBudget;
                }))
                continue;
            uint32_t b =
                ev.empty() ? 0u : ev.back().round + (ev.back().kind == TraceEventKind::Barrier);
            if (!ref) {
                ref = {inv, b};
                refSites = barrierSites(ev);
                continue;
            }
            std::vector<uint32_t> sites = barrierSites(ev);
            size_t common = std::min(sites.size(), refSites.size());
            auto differ = std::mismatch(sites.begin(), sites.begin() + common, refSites.begin());
            if (differ.first != sites.begin() + common) {
                size_t k = static_cast<size_t>(differ.first - sites.begin());
                Finding f{
                    FindingKind::DivergentBarrier,
                    "the " + ordinal(k + 1) + " barrier that " +
                        invocationName(m_trace.launch, ref->first) +
                        " reached is the one at line " + std::to_string(*differ.second) + ", but " +
                        invocationName(m_trace.launch, inv) + " reached the one at line " +
                        std::to_string(*differ.first) +
                        " instead: the threads of a workgroup must all reach the same barrier; "
                        "barrier() in both branches of an if whose condition differs "
                        "between threads is two barriers (keep the barrier outside the if)"};
                f.line = *differ.first;
                f.threads = {ref->first, inv};
                add(f);
                return;
            }
            if (b == ref->second) continue;
            Finding f{FindingKind::DivergentBarrier,
                      invocationName(m_trace.launch, ref->first) + " passed " +
                          std::to_string(ref->second) + " barriers but " +
                          invocationName(m_trace.launch, inv) + " passed " + std::to_string(b) +
                          ": every thread of a workgroup must reach every barrier (is one inside "
                          "an if?)"};
            f.threads = {ref->first, inv};
            add(f);
            return;
        }
    }

    // A shared cell after a round's atomics on it, from its value before them. The threads'
    // order is not traced, but it does not matter for add, min, max, and, or, xor: the operands
    // fold in any order. Exchanges form one chain (each saw the previous one's
    // result as its old value): the cell keeps the result nobody saw. A lone atomic store leaves
    // its value. Unknown (nullopt) for a compare-and-swap, whose operand is not traced, several
    // stores, or a chain that does not close.
    std::optional<uint32_t> afterAtomics(uint32_t before,
                                         const std::vector<const TraceEvent*>& events) const {
        std::optional<ElementKind> type =
            m_trace.variables[events.front()->variable].decl.elementType;
        std::map<uint32_t, int> balance; // results minus old values
        uint32_t folded = before;
        bool foldable = true;
        for (const TraceEvent* e : events) {
            auto op = m_atomics.find(e->line);
            AtomicOpKind kind = op == m_atomics.end() ? AtomicOpKind::Add : op->second;
            if (kind == AtomicOpKind::Load) continue;
            if (kind == AtomicOpKind::Store) { // its traced value is what it stored
                if (events.size() > 1) return std::nullopt;
                return e->value;
            }
            ++balance[valueWritten(m_trace, *e, m_atomics)];
            --balance[e->value];
            // An exchange or a compare-and-swap depends on the order: only the chain tells.
            if (kind == AtomicOpKind::Exchange || kind == AtomicOpKind::CompSwap)
                foldable = false;
            else
                folded = applyAtomic(kind, type, folded, e->extra);
        }
        if (foldable) return folded;
        std::optional<uint32_t> end;
        for (auto [value, count] : balance)
            if (count > 0) {
                if (end || count > 1) return std::nullopt;
                end = value;
            }
        return end ? end : std::optional<uint32_t>(before);
    }

    // A thread's access to a shared cell in one round.
    struct Use {
        uint64_t thread;
        bool write;
        bool atomic;
        uint32_t line;
        uint32_t phase; // subgroup barriers the thread had passed
    };
    // What the threads of one workgroup did to shared memory in one round.
    struct RoundUses {
        // (var, index) -> accesses this round, the first of each kind per thread
        std::unordered_map<uint64_t, std::vector<Use>> uses;
        std::vector<std::pair<uint64_t, uint32_t>> pendingWrites; // key, value
        std::unordered_map<uint64_t, std::vector<const TraceEvent*>> atomics;
        std::unordered_map<uint64_t, std::set<uint64_t>> writers;
        std::vector<std::pair<uint64_t, const TraceEvent*>> reads; // before any own write
    };

    // A thread's later use of a cell with the same kind and subgroup phase as an earlier one
    // races exactly when that one does, and the earlier one is reported first: keep only the
    // first, so the race check is quadratic in threads, not in accesses (a thread's loop over one
    // cell made hundreds of thousands of uses).
    static void addUse(std::vector<Use>& list, Use use) {
        for (auto it = list.rbegin(); it != list.rend() && it->thread == use.thread; ++it)
            if (it->write == use.write && it->atomic == use.atomic && it->phase == use.phase)
                return;
        list.push_back(use);
    }

    // Round `round` of threads first..end-1: their shared accesses, each thread's cursor moved
    // past them. False when no thread had an event in it (the workgroup is done).
    bool collectRound(uint64_t first, uint64_t end, uint32_t round, const SharedSnapshot& state,
                      std::vector<size_t>& cursor, std::vector<uint32_t>& phase, RoundUses& r) {
        bool any = false;
        for (uint64_t inv = first; inv < end; ++inv) {
            auto& events = m_trace.threads[inv];
            size_t& c = cursor[inv - first];
            std::unordered_set<uint64_t> ownWrites;
            for (; c < events.size() && events[c].round == round; ++c) {
                any = true;
                const TraceEvent& e = events[c];
                if (e.kind == TraceEventKind::SubgroupBarrier) ++phase[inv - first];
                if (!isShared(m_trace, e)) continue;
                uint64_t key = (uint64_t(e.variable) << 32) | e.index;
                bool inRange = e.index < m_trace.variables[e.variable].length;
                bool atomic = e.kind == TraceEventKind::Atomic;
                addUse(r.uses[key],
                       {inv, e.kind == TraceEventKind::Write, atomic, e.line, phase[inv - first]});
                if (e.kind == TraceEventKind::Read && inRange &&
                    !state.written[e.variable][e.index] && !ownWrites.count(key))
                    r.reads.push_back({inv, &e});
                if (writes(e) && inRange) {
                    ownWrites.insert(key);
                    r.writers[key].insert(inv);
                    if (atomic)
                        r.atomics[key].push_back(&e);
                    else
                        r.pendingWrites.push_back({key, e.value});
                }
            }
        }
        return any;
    }

    // A round's plain writes and atomics, applied to the workgroup's shared memory.
    void applyRound(const RoundUses& r, SharedSnapshot& state) const {
        for (auto [key, value] : r.pendingWrites) {
            uint32_t var = static_cast<uint32_t>(key >> 32), idx = static_cast<uint32_t>(key);
            state.values[var][idx] = value;
            state.written[var][idx] = 1;
        }
        for (const auto& [key, events] : r.atomics) {
            uint32_t var = static_cast<uint32_t>(key >> 32), idx = static_cast<uint32_t>(key);
            // The value only: a cell no plain write reached stays unwritten, so that a later
            // read of it (bins never cleared, then counted into) is still reported.
            if (auto v = afterAtomics(state.values[var][idx], events)) state.values[var][idx] = *v;
        }
    }

    // Replays one workgroup round by round: races, reads of unwritten cells, and snapshots.
    void walkRounds(uint64_t g) {
        uint32_t per = m_trace.launch.invocationsPerGroup();
        uint64_t first = g * per, end = std::min<uint64_t>(first + per, m_trace.threads.size());
        std::vector<size_t> cursor(end - first, 0);
        std::vector<uint32_t> phase(end - first, 0); // subgroup barriers each thread has passed
        SharedSnapshot state;
        state.values.resize(m_trace.variables.size());
        state.written.resize(m_trace.variables.size());
        for (size_t v = 0; v < m_trace.variables.size(); ++v)
            if (m_trace.variables[v].decl.shared) {
                state.values[v].assign(m_trace.variables[v].length, 0);
                state.written[v].assign(m_trace.variables[v].length, 0);
            }
        std::vector<SharedSnapshot> snaps;
        for (uint32_t round = 0;; ++round) {
            RoundUses r;
            if (!collectRound(first, end, round, state, cursor, phase, r)) break;
            // A cell another thread writes in this same round is a race (reported below), not
            // unwritten. With dropped records a write may be missing: no unwritten-read claims
            // then.
            for (const auto& read : r.reads) {
                uint64_t inv = read.first; // a plain variable: the lambda below captures it
                const TraceEvent* e = read.second;
                auto w = r.writers.find((uint64_t(e->variable) << 32) | e->index);
                bool otherWriter =
                    w != r.writers.end() && std::any_of(w->second.begin(), w->second.end(),
                                                        [&](uint64_t t) { return t != inv; });
                if (!m_trace.dropped && !otherWriter) uninitialised(inv, *e);
            }
            for (auto& [key, list] : r.uses)
                raceCheck(key, list, round);
            applyRound(r, state);
            state.round = round;
            snaps.push_back(state);
        }
        if (m_analysis.rounds.size() <= g) m_analysis.rounds.resize(g + 1);
        m_analysis.rounds[g] = std::move(snaps);
    }

    // Two threads of one subgroup whose accesses a subgroupBarrier() lies between (Vulkan's
    // memory model: the barrier orders them within its subgroup). Subgroups are taken to be runs
    // of subgroupSize consecutive local invocation indices, as drivers lay out compute subgroups.
    bool subgroupOrdered(uint64_t a, uint32_t phaseA, uint64_t b, uint32_t phaseB) const {
        uint32_t size = m_trace.subgroupSize, per = m_trace.launch.invocationsPerGroup();
        return size && phaseA != phaseB && (a % per) / size == (b % per) / size;
    }

    // Two threads conflict on a cell within a round when one writes it plainly and the other
    // touches it at all, or one uses an atomic and the other a plain access, unless a subgroup
    // barrier orders them. Atomics alone are fine.
    template <class List> void raceCheck(uint64_t key, const List& list, uint32_t round) {
        for (bool atomics : {false, true}) // plain writers first: their message is the clearer one
            for (const auto& w : list)
                if ((atomics ? w.atomic : w.write && !w.atomic) && raceWith(key, list, w, round))
                    return;
    }
    template <class List, class Use>
    bool raceWith(uint64_t key, const List& list, const Use& w, uint32_t round) {
        const Use* writer = &w;
        for (const auto& u : list) {
            if (u.thread == writer->thread || (writer->atomic && u.atomic)) continue;
            if (writer->atomic && u.write) continue; // reported with the plain writer as `writer`
            if (subgroupOrdered(writer->thread, writer->phase, u.thread, u.phase)) continue;
            ++m_races;
            uint32_t var = static_cast<uint32_t>(key >> 32), idx = static_cast<uint32_t>(key);
            Finding f{FindingKind::SharedRace,
                      cell(m_trace, var, idx) + " in barrier round " + std::to_string(round) +
                          ": " + invocationName(m_trace.launch, writer->thread) +
                          (writer->atomic ? " updates it atomically" : " writes it") +
                          lineText(writer->line) + " while " +
                          invocationName(m_trace.launch, u.thread) +
                          (u.write ? " also writes it" : " reads it") + lineText(u.line) +
                          ", with no barrier between: a missing barrier()?"};
            f.line = u.line;
            f.threads = {writer->thread, u.thread};
            f.variable = static_cast<int>(var);
            f.index = idx;
            f.round = round;
            add(f);
            return true;
        }
        return false;
    }

    void uninitialised(uint64_t inv, const TraceEvent& e) {
        Finding f{FindingKind::UninitialisedRead,
                  invocationName(m_trace.launch, inv) + " reads " +
                      cell(m_trace, e.variable, e.index) + lineText(e.line) + " in barrier round " +
                      std::to_string(e.round) + ", but no thread wrote that cell before"};
        f.line = e.line;
        f.threads = {inv};
        f.variable = static_cast<int>(e.variable);
        f.index = e.index;
        f.round = e.round;
        add(f);
    }

    const Trace& m_trace;
    const Limits& m_limits;
    std::map<uint32_t, AtomicOpKind> m_atomics; // the operation of each atomic line
    TraceAnalysis m_analysis;
    uint64_t m_races = 0;
    std::map<FindingKind, uint64_t> m_unlisted;
    std::vector<uint32_t> m_owners; // by variable: cellOwner, the view whose cells it shares
};

} // namespace

bool TraceAnalysis::failsCase() const {
    return std::any_of(findings.begin(), findings.end(),
                       [](const Finding& f) { return f.failsCase; });
}

std::optional<Finding> loopGuardFinding(std::span<const uint32_t> g, const TraceLaunch& launch,
                                        const std::vector<uint32_t>& siteLines) {
    if (g.size() < kLoopGuardWords || g[kLoopGuardStopped] == 0) return std::nullopt;
    const uint32_t* at =
        g.data() + kLoopGuardLine; // line, back-edges, local index, workgroup x, y, z
    uint64_t group = at[3] + uint64_t(at[4]) * launch.workgroups[0] +
                     uint64_t(at[5]) * launch.workgroups[0] * launch.workgroups[1];
    uint64_t invocation = group * launch.invocationsPerGroup() + at[2];
    if (invocation >= launch.invocations())
        invocation = 0; // a garbled guard still reports the stop
    return loopBudgetFinding(launch, invocation, lineOfSite(siteLines, at[0]), at[1],
                             g[kLoopGuardStopped]);
}

TraceAnalysis analyzeTrace(const Trace& trace, const Limits& limits) {
    return Analyzer(trace, limits).run();
}

TraceAnalysis analyzeCase(const Trace& trace, const CaseChecks& checks) {
    TraceAnalysis a = Analyzer(trace, checks.limits).run();
    // Before the overflow warning, which stays last: a count seen in part of a trace is a lower
    // bound, so a rule broken there is broken.
    auto at = std::find_if(a.findings.begin(), a.findings.end(),
                           [](const Finding& f) { return f.kind == FindingKind::TraceOverflow; });
    std::vector<Finding> rules = ruleFindings(trace, checks.rules);
    a.findings.insert(at, rules.begin(), rules.end());
    return a;
}

} // namespace vkp
