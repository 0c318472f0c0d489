#include "report/case_file.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <unistd.h>

#include "base/os.h"
#include "base/wire_describe.h"
#include "device/device_wire.h"
#include "judge/statement_rules.h"
#include "judge/trace_analysis.h"
#include "puzzle/puzzle_loader.h"

namespace vkp {
namespace {

constexpr uint32_t kMagic0 = 0x43504b56; // "VKPC"
constexpr uint32_t kMagic1 = 0x00455341; // "ASE\0"
constexpr size_t kHeaderBytes = 24;      // magic (8), version (4), 0 (4), length (8)
// ... then the fingerprint (8) after the length, before the payload.
constexpr size_t kPreambleBytes = kHeaderBytes + 8;

// What a decoder accepts, far above any real case.
constexpr uint32_t kMaxDiagnostics = 4096;
constexpr uint32_t kMaxBuffers = 32;    // a puzzle's bindings
constexpr uint32_t kMaxTraces = 1024;   // dispatches of one case (puzzle/passes.h)
constexpr uint32_t kMaxVariables = 255; // a record's variable field is 8 bits, 0xff: none
constexpr uint32_t kMaxInvocations = 1u << 24;
constexpr uint32_t kMaxFindings = 1u << 16;
constexpr uint32_t kMaxListed = 1u << 16; // notes, formats, prints' ids, failures, dims
constexpr uint32_t kMaxSizeExprDepth = 16;

uint64_t fingerprint(std::string_view bytes) {
    uint64_t h = 0xcbf29ce484222325ull; // FNV-1a
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

// A trace as the file keeps it: a single-pass case's one, or each dispatch of a multi-pass case,
// with the findings its analysis recorded (the rest of the analysis is derived again on opening).
struct StoredTrace {
    std::string label;
    uint32_t kernel = 0;
    std::shared_ptr<const Trace> trace;
    std::vector<Finding> findings;
};

// M is T when reading and const T when writing, as in base/wire_describe.h.
template <class Io, class M, class F> bool describeOptional(Io& io, M& o, F value) {
    bool has = o.has_value();
    if (!io.num(has)) return false;
    if constexpr (Io::kReading) {
        if (!has) return true;
        o.emplace();
    } else if (!has) {
        return true;
    }
    return value(*o);
}

template <class Io, class M> bool describeError(Io& io, M& e) {
    return io.error(e);
}

template <class Io, class M> bool describeBufferData(Io& io, M& b) {
    return io.num(b.type, ElementKind::Uint) &&
           io.list(b.shape.dims, 2, [&](auto& d) { return io.num(d); }) && io.words(b.words);
}

template <class Io, class M> bool describeFinding(Io& io, M& f) {
    return io.num(f.kind, FindingKind::InputWritten) && io.str(f.message) && io.num(f.line) &&
           io.list(f.threads, kMaxListed, [&](auto& t) { return io.num(t); }) &&
           io.num(f.variable) && io.num(f.index) && io.num(f.round) && io.num(f.occurrences) &&
           io.num(f.failsCase);
}

template <class Io, class M> bool describeSizeExpr(Io& io, M& s, uint32_t depth) {
    return io.check(depth < kMaxSizeExprDepth) && io.num(s.kind, SizeExpr::Kind::Unknown) &&
           io.num(s.value) && io.num(s.specId) &&
           io.list(s.operands, 2, [&](auto& o) { return describeSizeExpr(io, o, depth + 1); });
}

template <class Io, class M> bool describeVariable(Io& io, M& v) {
    bool typed = v.decl.elementType.has_value();
    ElementKind type = v.decl.elementType.value_or(ElementKind::Float);
    bool ok =
        io.str(v.decl.name) && io.num(v.decl.shared) && io.num(v.decl.set) &&
        io.num(v.decl.binding) &&
        io.list(v.decl.dims, kMaxListed, [&](auto& d) { return describeSizeExpr(io, d, 0); }) &&
        io.num(typed) && io.num(type, ElementKind::Uint) && io.num(v.decl.elementWidth) &&
        io.num(v.length) && io.list(v.dims, kMaxListed, [&](auto& d) { return io.num(d); }) &&
        io.num(v.puzzleBuffer);
    if constexpr (Io::kReading)
        if (ok && typed) v.decl.elementType = type;
    return ok;
}

// A thread's events as the records an instrumented kernel writes (trace/trace.h): word 0 packs
// kind, variable and line, then index, value and extra. Rounds are counted again from barriers.
template <class Io, class M> bool describeEvents(Io& io, M& events) {
    std::vector<uint32_t> words;
    if constexpr (!Io::kReading) {
        words.reserve(events.size() * kTraceRecordWords);
        for (const TraceEvent& e : events) {
            uint32_t w0 = packTraceWord0(e.kind, e.variable, e.line);
            words.insert(words.end(), {w0, e.index, e.value, e.extra});
        }
        return io.words(words);
    } else {
        if (!io.words(words) || words.size() % kTraceRecordWords != 0) return false;
        events.resize(words.size() / kTraceRecordWords);
        uint32_t round = 0;
        for (size_t k = 0; k < events.size(); ++k) {
            const uint32_t* r = words.data() + k * kTraceRecordWords;
            TraceEvent& e = events[k];
            e.kind = static_cast<TraceEventKind>(r[0] >> 28);
            e.variable = (r[0] >> kTraceLineBits) & 0xff;
            e.line = r[0] & ((1u << kTraceLineBits) - 1);
            e.index = r[1];
            e.value = r[2];
            e.extra = r[3];
            e.round = round;
            if (e.kind == TraceEventKind::Barrier) ++round;
        }
        return true;
    }
}

// A map travels as its size and (key, value) pairs.
template <class Io, class M> bool describeMap(Io& io, M& m) {
    if constexpr (Io::kReading) {
        std::vector<std::pair<uint64_t, uint32_t>> pairs;
        if (!io.list(pairs, kMaxInvocations,
                     [&](auto& p) { return io.num(p.first) && io.num(p.second); }))
            return false;
        m.insert(pairs.begin(), pairs.end());
        return true;
    } else {
        return io.list(m, kMaxInvocations,
                       [&](const auto& p) { return io.num(p.first) && io.num(p.second); });
    }
}

template <class Io, class M> bool describeTrace(Io& io, M& t) {
    bool ok = true;
    for (auto& v : t.launch.workgroupSize)
        ok = ok && io.num(v);
    for (auto& v : t.launch.workgroups)
        ok = ok && io.num(v);
    return ok &&
           io.list(t.variables, kMaxVariables, [&](auto& v) { return describeVariable(io, v); }) &&
           io.list(t.threads, kMaxInvocations,
                   [&](auto& events) { return describeEvents(io, events); }) &&
           io.list(t.printfFormats, kMaxListed, [&](auto& f) { return io.str(f); }) &&
           io.list(t.prints, kMaxInvocations,
                   [&](auto& p) {
                       return io.num(p.invocation) && io.num(p.format) && io.num(p.line) &&
                              io.num(p.afterEvents) && io.words(p.args);
                   }) &&
           describeMap(io, t.printsDropped) && io.num(t.dropped) && io.num(t.slotsPerInvocation) &&
           io.num(t.mostRecordsWanted) && io.num(t.subgroupSize) && io.str(t.source);
}

template <class Io, class M> bool describeStoredTrace(Io& io, M& s) {
    if constexpr (Io::kReading) {
        auto t = std::make_shared<Trace>();
        if (!(io.str(s.label) && io.num(s.kernel) && describeTrace(io, *t))) return false;
        s.trace = t;
    } else {
        if (!(io.str(s.label) && io.num(s.kernel) && describeTrace(io, *s.trace))) return false;
    }
    return io.list(s.findings, kMaxFindings, [&](auto& f) { return describeFinding(io, f); });
}

template <class Io, class M> bool describeSchedule(Io& io, M& s) {
    return io.num(s.outcome, ScheduleOutcome::SuccessorsFinished) && io.num(s.afterWrite) &&
           io.str(s.buffer) && io.num(s.heldWorkgroup) && io.num(s.place) && io.num(s.index) &&
           io.num(s.spins) && io.num(s.others) && io.num(s.othersFinished) && io.str(s.rule) &&
           io.num(s.arrivals) && io.num(s.view, ScheduleView::GivenUp) && io.num(s.viewReads);
}

template <class Io, class M> bool describeFailures(Io& io, M& failures) {
    return io.list(failures, kMaxListed,
                   [&](auto& f) { return io.num(f.index) && io.str(f.detail); });
}

// The case, with its traces as `traces` (kept apart: a CaseOutcome shares one trace between
// `trace` and `dispatches`), the one on show being `primary`.
template <class Io, class M, class T>
bool describeCase(Io& io, M& c, T& traces, uint32_t& primary) {
    return io.num(c.index) && io.num(c.pass) && io.num(c.hidden) && io.num(c.inconclusive) &&
           describeOptional(io, c.error, [&](auto& e) { return describeError(io, e); }) &&
           io.list(c.inputs, kMaxBuffers, [&](auto& b) { return describeBufferData(io, b); }) &&
           io.list(c.outputs, kMaxBuffers,
                   [&](auto& o) {
                       return io.num(o.buffer) && describeBufferData(io, o.expected) &&
                              describeBufferData(io, o.actual) && io.num(o.comparison.pass) &&
                              io.num(o.comparison.mismatchCount) &&
                              io.list(o.comparison.mismatches, kMaxMismatches,
                                      [&](auto& m) {
                                          return io.num(m.index) && io.num(m.expected) &&
                                                 io.num(m.actual);
                                      }) &&
                              io.num(o.comparison.tolerance) && io.num(o.checked);
                   }) &&
           io.num(c.gpuMs) && io.num(c.outputsMatch) &&
           io.list(traces, kMaxTraces, [&](auto& s) { return describeStoredTrace(io, s); }) &&
           io.num(primary) && io.list(c.notes, kMaxListed, [&](auto& n) { return io.str(n); }) &&
           io.list(c.runFindings, kMaxFindings, [&](auto& f) { return describeFinding(io, f); }) &&
           io.list(c.schedules, kMaxTraces, [&](auto& s) { return describeSchedule(io, s); }) &&
           io.list(c.scheduleTexts, kMaxTraces, [&](auto& s) { return io.str(s); });
}

template <class Io, class M> bool describeTimings(Io& io, M& t) {
    return io.num(t.compileMs) && io.num(t.reflectMs) && io.num(t.pipelineMs) && io.num(t.runMs) &&
           io.num(t.checkMs) && io.num(t.instrumentMs) && io.num(t.analysisMs) &&
           io.num(t.traceRerunMs) && io.num(t.traceReruns) && io.num(t.loopGuardMs) &&
           io.num(t.gpuMs) && io.num(t.totalMs) && io.num(t.firstVerdictMs) && io.num(t.pipelines);
}

template <class Io, class M, class T>
bool describeReport(Io& io, M& r, T& traces, uint32_t& primary) {
    return io.str(r.kernelFile) && io.num(r.reached, StageKind::Done) &&
           io.list(r.diagnostics, kMaxDiagnostics,
                   [&](auto& d) {
                       return io.str(d.file) && io.num(d.line) && io.num(d.column) &&
                              io.num(d.severity, SeverityKind::Note) && io.str(d.message);
                   }) &&
           describeOptional(io, r.error, [&](auto& e) { return describeError(io, e); }) &&
           io.num(r.compilerCrashed) && describeTimings(io, r.timing) && io.num(r.lanes) &&
           io.num(r.usesSubgroups) &&
           io.list(r.otherSizes, kMaxListed,
                   [&](auto& s) {
                       return io.num(s.lanes) && io.str(s.device) &&
                              describeOptional(io, s.error,
                                               [&](auto& e) { return describeError(io, e); }) &&
                              describeFailures(io, s.failures) && io.num(s.casesRun);
                   }) &&
           describeOptional(io, r.fresh,
                            [&](auto& f) {
                                return io.num(f.seed) &&
                                       describeOptional(
                                           io, f.error,
                                           [&](auto& e) { return describeError(io, e); }) &&
                                       describeFailures(io, f.failures) && io.num(f.casesRun);
                            }) &&
           io.list(r.cases, 1, [&](auto& c) { return describeCase(io, c, traces, primary); }) &&
           io.check(r.cases.size() == 1);
}

template <class Io, class M, class T>
bool describeCaseFile(Io& io, M& f, T& traces, uint32_t& primary) {
    return io.str(f.madeBy) && io.str(f.madeAt) && io.str(f.pack) && io.str(f.puzzleFolder) &&
           io.str(f.puzzleToml) && io.str(f.kernelText) && describeDeviceInfo(io, f.device) &&
           describeReport(io, f.report, traces, primary);
}

std::string utcNow() {
    std::tm tm = os::utcTime(std::time(nullptr));
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &tm);
    return text;
}

// --- Checks on a decoded file: every index the views and the analysis follow -----------------

bool validData(const BufferData& b) {
    return !b.shape.dims.empty() && b.shape.count() <= kMaxBufferElements &&
           b.words.size() == b.shape.count();
}

bool knownEventKind(TraceEventKind k) {
    switch (k) {
    case TraceEventKind::Read:
    case TraceEventKind::Write:
    case TraceEventKind::Atomic:
    case TraceEventKind::Barrier:
    case TraceEventKind::LoopBudget:
    case TraceEventKind::SubgroupBarrier:
    case TraceEventKind::Shuffle:
    case TraceEventKind::UndefinedUse:
        return true;
    default:
        return false;
    }
}

std::optional<std::string> findingProblem(const Finding& f, uint64_t invocations,
                                          size_t variables) {
    if (f.variable < -1 || (f.variable >= 0 && size_t(f.variable) >= variables))
        return "a finding names a variable the trace does not have";
    for (uint64_t t : f.threads)
        if (t >= invocations) return "a finding names a thread outside the launch";
    return std::nullopt;
}

std::optional<std::string> traceProblem(const Puzzle& puzzle, const StoredTrace& s) {
    const Trace& t = *s.trace;
    if (s.kernel >= puzzle.kernels.size()) return "a trace names a kernel the puzzle does not have";
    const TraceLaunch& l = t.launch;
    for (int d = 0; d < 3; ++d)
        if (l.workgroupSize[d] == 0 || l.workgroups[d] == 0 ||
            l.workgroups[d] > kMaxWorkgroupsPerDim)
            return "a trace's launch has an empty or impossible dimension";
    if (uint64_t(l.workgroupSize[0]) * l.workgroupSize[1] * l.workgroupSize[2] >
        kMaxWorkgroupThreads)
        return "a trace's workgroup has more threads than any device allows";
    if (l.invocations() != t.threads.size())
        return "a trace holds " + std::to_string(t.threads.size()) +
               " threads where its launch has " + std::to_string(l.invocations());
    for (const TraceVariableInfo& v : t.variables) {
        if (v.puzzleBuffer < -1 ||
            (v.puzzleBuffer >= 0 && size_t(v.puzzleBuffer) >= puzzle.buffers.size()))
            return "a traced variable names a buffer the puzzle does not have";
        if (v.length > kMaxBufferElements || v.decl.elementWidth == 0 || v.decl.elementWidth > 4 ||
            v.dims.size() > 8)
            return "a traced variable has an impossible size";
        uint64_t cells = v.dims.empty() ? 0 : 1;
        for (uint64_t d : v.dims)
            cells = d == 0 || cells > kMaxBufferElements ? 0 : cells * d;
        uint64_t width = v.decl.shared ? v.decl.elementWidth : 1;
        if (!v.dims.empty() && cells * width != v.length)
            return "a traced variable's size disagrees with its dimensions";
    }
    for (const auto& events : t.threads)
        for (const TraceEvent& e : events) {
            if (!knownEventKind(e.kind)) return "a trace holds a record of an unknown kind";
            if (e.variable != kTraceVariableNone && e.variable >= t.variables.size())
                return "a trace record names a variable the trace does not have";
            bool access = e.kind == TraceEventKind::Read || e.kind == TraceEventKind::Write ||
                          e.kind == TraceEventKind::Atomic;
            if (access && e.variable == kTraceVariableNone)
                return "a trace's access names no variable";
        }
    for (const PrintfRecord& p : t.prints)
        if (p.invocation >= t.threads.size() || p.format >= t.printfFormats.size() ||
            p.afterEvents > t.threads[p.invocation].size() || p.args.size() > kPrintfMaxArgWords)
            return "a printf line names a thread, format or place the trace does not have";
    for (const auto& [invocation, lost] : t.printsDropped)
        if (invocation >= t.threads.size()) return "a trace counts lines of a thread outside it";
    for (const Finding& f : s.findings)
        if (auto p = findingProblem(f, t.threads.size(), t.variables.size())) return p;
    return std::nullopt;
}

std::optional<std::string> caseProblem(const Puzzle& puzzle, const CaseOutcome& c,
                                       const std::vector<StoredTrace>& traces, uint32_t primary) {
    if (c.index >= puzzle.puzzleCaseCount())
        return "it names case " + std::to_string(c.index + 1) + " of a puzzle with " +
               std::to_string(puzzle.puzzleCaseCount());
    if (!c.inputs.empty() && c.inputs.size() != puzzle.buffers.size())
        return "its case holds data for " + std::to_string(c.inputs.size()) +
               " buffers where the puzzle has " + std::to_string(puzzle.buffers.size());
    for (const BufferData& b : c.inputs)
        if (!validData(b)) return "a buffer's data disagrees with its shape";
    for (const BufferOutcome& o : c.outputs) {
        if (o.buffer >= puzzle.buffers.size())
            return "an output names a buffer the puzzle does not have";
        if (!validData(o.expected) || !validData(o.actual) ||
            o.expected.words.size() != o.actual.words.size())
            return "an output's data disagrees with its shape";
        for (const Mismatch& m : o.comparison.mismatches)
            if (m.index >= o.actual.words.size()) return "a wrong cell lies outside its buffer";
    }
    if (primary >= traces.size() && !traces.empty())
        return "the trace on show is not one of the case's";
    if (!puzzle.multiPass() && traces.size() > 1) return "a single-pass case holds several traces";
    for (const StoredTrace& s : traces)
        if (auto p = traceProblem(puzzle, s)) return p;
    size_t variables = traces.empty() ? 0 : traces[primary].trace->variables.size();
    for (const Finding& f : c.runFindings)
        if (f.variable < -1 || (f.variable >= 0 && size_t(f.variable) >= variables))
            return "a finding of the run names a variable the trace does not have";
    return std::nullopt;
}

Error damaged(const std::string& name, const std::string& why) {
    return Error{ErrorKind::Io, name + " is damaged: " + why + ", so it cannot be opened", {}};
}

} // namespace

Result<CaseFile> makeCaseFile(const Puzzle& puzzle, const CheckReport& report, size_t caseIndex,
                              std::string kernelText, const DeviceInfo& device) {
    if (caseIndex >= puzzle.puzzleCaseCount())
        return Error{ErrorKind::Usage, "case " + std::to_string(caseIndex + 1) +
                                           " is one of your own cases; a case file holds one of "
                                           "the puzzle's " +
                                           std::to_string(puzzle.puzzleCaseCount()) + " cases"};
    auto c = std::find_if(report.cases.begin(), report.cases.end(),
                          [&](const CaseOutcome& o) { return o.index == caseIndex; });
    if (c == report.cases.end())
        return Error{ErrorKind::Usage,
                     "case " + std::to_string(caseIndex + 1) + " has not run yet" +
                         (report.compiled() ? std::string() : ": the kernel does not compile")};
    auto toml = readTextFile(puzzle.file, kPuzzleFileLimit);
    if (!toml) return toml.error();
    CaseFile f;
    f.madeBy = std::string("vkpuzzles ") + VKPUZZLES_VERSION;
    f.madeAt = utcNow();
    f.pack = puzzle.pack;
    f.puzzleFolder = puzzle.folder;
    f.puzzleToml = std::move(*toml);
    f.kernelText = std::move(kernelText);
    f.device = device;
    f.report = report;
    f.report.cases = {*c};
    return f;
}

std::string encodeCaseFile(const CaseFile& f) {
    // The case's traces, once each: a multi-pass case's dispatches (its `trace` is one of them),
    // else its one trace.
    const CaseOutcome& c = f.report.cases.front();
    std::vector<StoredTrace> traces;
    uint32_t primary = 0;
    if (!c.dispatches.empty()) {
        for (size_t k = 0; k < c.dispatches.size(); ++k) {
            const DispatchTrace& d = c.dispatches[k];
            traces.push_back({d.label, static_cast<uint32_t>(d.kernel), d.trace,
                              d.analysis ? d.analysis->findings : std::vector<Finding>{}});
            if (d.trace == c.trace) primary = static_cast<uint32_t>(k);
        }
    } else if (c.trace) {
        traces.push_back(
            {"", 0, c.trace, c.analysis ? c.analysis->findings : std::vector<Finding>{}});
    }
    Encoder e;
    encodeWith(e, f, [&](auto& io, auto& m) { return describeCaseFile(io, m, traces, primary); });
    const Bytes& payload = e.bytes();
    return frameCaseFile(
        std::string_view(reinterpret_cast<const char*>(payload.data()), payload.size()));
}

std::string frameCaseFile(std::string_view payload) {
    Encoder head;
    head.u32(kMagic0);
    head.u32(kMagic1);
    head.u32(kCaseFileVersion);
    head.u32(0);
    head.u64(payload.size());
    head.u64(fingerprint(payload));
    std::string out(reinterpret_cast<const char*>(head.bytes().data()), head.bytes().size());
    out.append(payload);
    return out;
}

Result<OpenedCaseFile> decodeCaseFile(std::string_view bytes, const std::string& name) {
    auto u8 = reinterpret_cast<const uint8_t*>(bytes.data());
    Decoder head(std::span<const uint8_t>(u8, std::min(bytes.size(), kPreambleBytes)));
    uint32_t magic0 = 0, magic1 = 0, version = 0, zero = 0;
    uint64_t length = 0, print = 0;
    if (!head.u32(magic0) || !head.u32(magic1) || magic0 != kMagic0 || magic1 != kMagic1)
        return Error{ErrorKind::Io,
                     name + " is not a vkpuzzles case file (it does not start with VKPCASE)",
                     {}};
    if (!head.u32(version) || !head.u32(zero) || !head.u64(length) || !head.u64(print))
        return damaged(name, "it ends inside its header");
    if (version > kCaseFileVersion)
        return Error{ErrorKind::Io,
                     name + " was made by a newer vkpuzzles (case file format " +
                         std::to_string(version) + "; this one reads format " +
                         std::to_string(kCaseFileVersion) + "): open it with a newer vkpuzzles",
                     {}};
    if (version == 0 || zero != 0) return damaged(name, "its header is garbled");
    uint64_t have = bytes.size() - kPreambleBytes;
    if (have < length)
        return damaged(name, "it was cut short (" + sizeText(have) + " of its " + sizeText(length) +
                                 " after the header)");
    if (have > length)
        return damaged(name,
                       std::to_string(have - length) + " bytes follow its end (two files joined?)");
    std::string_view body = bytes.substr(kPreambleBytes);
    if (fingerprint(body) != print)
        return damaged(name, "its contents do not match their fingerprint (bytes were changed)");

    OpenedCaseFile opened;
    CaseFile& f = opened.file;
    std::vector<StoredTrace> traces;
    uint32_t primary = 0;
    Decoder d(std::span<const uint8_t>(u8 + kPreambleBytes, body.size()));
    if (!decodeWith(d, f,
                    [&](auto& io, auto& m) { return describeCaseFile(io, m, traces, primary); }))
        return damaged(name, "a field could not be read (not the layout of case file format " +
                                 std::to_string(version) + ")");
    const std::string& folder = f.puzzleFolder;
    if (folder.empty() || folder == "." || folder == ".." ||
        folder.find_first_of("/\\") != std::string::npos)
        return damaged(name, "its puzzle's folder name is not a name");
    if (f.kernelText.size() > kKernelFileLimit.bytes)
        return damaged(name, "its kernel is larger than any kernel file may be");
    // The puzzle as the file has it; its kernel files are not needed (nothing runs).
    std::string dir = "/vkpuzzles-case-file/" + folder;
    auto puzzle = parsePuzzle(f.puzzleToml, name + ": puzzle.toml", dir);
    if (!puzzle)
        return Error{ErrorKind::PuzzleFile,
                     name + " holds a puzzle that does not load: " + puzzle.error().str(),
                     {}};
    puzzle->pack = f.pack;
    CaseOutcome& c = f.report.cases.front();
    if (auto problem = caseProblem(*puzzle, c, traces, primary)) return damaged(name, *problem);

    // Each trace's analysis, derived again from it as the check did, with the findings it had.
    const CaseChecks checks = caseChecks(*puzzle, puzzle->cases.at(c.index));
    for (size_t k = 0; k < traces.size(); ++k) {
        TraceAnalysis a = analyzeCase(*traces[k].trace, checks);
        a.findings = std::move(traces[k].findings);
        auto analysis = std::make_shared<const TraceAnalysis>(std::move(a));
        if (k == primary) {
            c.trace = traces[k].trace;
            c.analysis = analysis;
        }
        if (puzzle->multiPass())
            c.dispatches.push_back({traces[k].label, traces[k].kernel, traces[k].trace, analysis});
    }
    opened.puzzle = std::make_shared<const Puzzle>(std::move(*puzzle));
    opened.report = std::make_shared<const CheckReport>(f.report);
    return opened;
}

std::string freeCaseFilePath(const std::string& dir, const Puzzle& puzzle, size_t caseIndex) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path target;
    for (int n = 1; n < 1000; ++n) {
        target = os::toPath(dir) /
                 os::toPath(puzzle.slug + "-case" + std::to_string(caseIndex + 1) +
                            (n > 1 ? "-" + std::to_string(n) : "") + kCaseFileExtension);
        if (!fs::exists(fs::symlink_status(target, ec))) break;
    }
    return os::pathText(target);
}

Status writeCaseFile(const std::string& path, const CaseFile& file) {
    std::string bytes = encodeCaseFile(file);
    if (bytes.size() > kCaseFileLimit.bytes)
        return Error{ErrorKind::Io, "the case file would take " + sizeText(bytes.size()) +
                                        ", more than " + sizeText(kCaseFileLimit.bytes) +
                                        " (a trace that large cannot be shared this way)"};
    return writeFileAtomically(path, bytes);
}

Result<OpenedCaseFile> readCaseFile(const std::string& path) {
    auto bytes = readTextFile(path, kCaseFileLimit);
    if (!bytes) return bytes.error();
    auto opened = decodeCaseFile(*bytes, os::pathText(os::toPath(path).filename()));
    if (!opened) return opened;
    opened->path = path;
    return opened;
}

bool looksLikeCaseFile(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(os::toPath(path), ec)) return false; // a FIFO would block
    int fd = os::openForReading(path);
    if (fd < 0) return false;
    uint8_t head[8] = {};
    auto got = ::read(fd, head, sizeof head);
    ::close(fd);
    size_t n = got > 0 ? static_cast<size_t>(got) : 0;
    Decoder d(std::span<const uint8_t>(head, n));
    uint32_t m0 = 0, m1 = 0;
    return d.u32(m0) && d.u32(m1) && m0 == kMagic0 && m1 == kMagic1;
}

std::string caseFileSummary(const OpenedCaseFile& o) {
    const CaseOutcome& c = o.report->cases.front();
    std::string verdict = c.hidden ? "hidden" : verdictWord(verdictOf(c));
    std::string detail = c.pass || c.hidden ? "" : caseFailureDetail(*o.puzzle, c);
    return "case " + std::to_string(c.index + 1) + " of " + o.puzzle->displayName() + ": " +
           verdict + (detail.empty() ? "" : " (" + detail + ")") + " on " + o.file.device.name;
}

} // namespace vkp
