// Synthetic traces for the trace-analysis tests: a builder that derives each event's barrier
// round as decodeTrace does, and small helpers over the findings.
#pragma once

#include <string>
#include <vector>

#include "judge/trace_analysis.h"

namespace vkp::test {

using K = TraceEventKind;

// Builds a Trace event by event; each event's round is the number of barriers its thread
// recorded before it, as decodeTrace derives it.
class TraceBuilder {
  public:
    explicit TraceBuilder(std::array<uint32_t, 3> workgroupSize,
                          std::array<uint32_t, 3> workgroups = {1, 1, 1}) {
        t.launch.workgroupSize = workgroupSize;
        t.launch.workgroups = workgroups;
        t.threads.resize(t.launch.invocations());
        m_rounds.assign(t.threads.size(), 0);
        t.slotsPerInvocation = 64;
    }

    uint32_t buffer(const std::string& name, uint64_t length) {
        TraceVariableInfo v;
        v.decl.name = name;
        v.length = length;
        v.puzzleBuffer = static_cast<int>(t.variables.size());
        t.variables.push_back(v);
        return static_cast<uint32_t>(t.variables.size() - 1);
    }
    uint32_t shared(const std::string& name, std::vector<uint64_t> dims) {
        TraceVariableInfo v;
        v.decl.name = name;
        v.decl.shared = true;
        v.length = 1;
        for (uint64_t d : dims) {
            v.decl.dims.push_back(SizeExpr{SizeExpr::Kind::Literal, static_cast<uint32_t>(d)});
            v.length *= d;
        }
        v.dims = dims;
        t.variables.push_back(v);
        return static_cast<uint32_t>(t.variables.size() - 1);
    }

    TraceBuilder& read(uint64_t inv, uint32_t var, uint32_t index, uint32_t line,
                       uint32_t value = 0) {
        return event(inv, K::Read, var, index, line, value);
    }
    TraceBuilder& write(uint64_t inv, uint32_t var, uint32_t index, uint32_t value, uint32_t line) {
        return event(inv, K::Write, var, index, line, value);
    }
    // One instruction moving a vector of `width` scalars from index `first` on: a record per
    // scalar, each marked as the instrumentation marks it (packVectorPart).
    TraceBuilder& readVector(uint64_t inv, uint32_t var, uint32_t first, uint32_t width,
                             uint32_t line) {
        for (uint32_t k = 0; k < width; ++k) {
            event(inv, K::Read, var, first + k, line, 0);
            t.threads[inv].back().extra = packVectorPart(width, k);
        }
        return *this;
    }
    TraceBuilder& atomic(uint64_t inv, uint32_t var, uint32_t index, uint32_t line,
                         uint32_t old = 0, uint32_t operand = 1) {
        event(inv, K::Atomic, var, index, line, old);
        t.threads[inv].back().extra = operand;
        return *this;
    }
    TraceBuilder& barrier(uint64_t inv, uint32_t line = 0) {
        event(inv, K::Barrier, kTraceVariableNone, 0, line, 0);
        ++m_rounds[inv];
        return *this;
    }
    // Every thread of the launch reaches a barrier.
    TraceBuilder& barrierAll(uint32_t line = 0) {
        for (uint64_t inv = 0; inv < t.threads.size(); ++inv)
            barrier(inv, line);
        return *this;
    }
    // subgroupBarrier(): orders this thread's subgroup; no new round.
    TraceBuilder& subgroupBarrier(uint64_t inv, uint32_t line = 0) {
        return event(inv, K::SubgroupBarrier, kTraceVariableNone, 0, line, 0);
    }
    TraceBuilder& loopBudget(uint64_t inv, uint32_t line,
                             uint32_t backEdges = kDefaultLoopBudget + 1) {
        return event(inv, K::LoopBudget, kTraceVariableNone, 0, line, backEdges);
    }

    // A value handed over by a subgroup op (`lane`: its lane operand); `ran`: whether the lane
    // it names ran the op too, as the device's ballot records it.
    TraceBuilder& shuffle(uint64_t inv, ShuffleOp op, uint32_t lane, uint32_t line,
                          bool ran = true) {
        event(inv, K::Shuffle, kTraceVariableNone, lane, line, 0);
        t.threads[inv].back().extra =
            packShuffleExtra(op, ElementKind::Uint) | (ran ? 0 : kShuffleSourceInactive);
        return *this;
    }
    // Where the thread used an undefined value it took (rewrite/undefined_values_rewriter.h).
    TraceBuilder& undefinedUse(uint64_t inv, uint32_t line) {
        return event(inv, K::UndefinedUse, kTraceVariableNone, 0, line, 0);
    }

    Trace t;

  private:
    TraceBuilder& event(uint64_t inv, K kind, uint32_t var, uint32_t index, uint32_t line,
                        uint32_t value) {
        TraceEvent e;
        e.kind = kind;
        e.variable = var;
        e.index = index;
        e.line = line;
        e.value = value;
        e.round = m_rounds[inv];
        t.threads[inv].push_back(e);
        return *this;
    }
    std::vector<uint32_t> m_rounds;
};

inline std::vector<const Finding*> findingsOf(const TraceAnalysis& a, FindingKind kind) {
    std::vector<const Finding*> out;
    for (const Finding& f : a.findings)
        if (f.kind == kind) out.push_back(&f);
    return out;
}

inline std::string allMessages(const TraceAnalysis& a) {
    std::string s;
    for (const Finding& f : a.findings)
        s += std::string(findingKindName(f.kind)) + ": " + f.message + "\n";
    return s;
}

inline bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

} // namespace vkp::test
