#include "session/live_session.h"

#include <future>

#include "check/atomic_order.h"
#include "check/case_search.h"
#include "check/hidden_cases.h"
#include "check/kernel_text.h"
#include "gpu/context.h"
#include "gpu/device_runner.h"
#include "shader/compiler.h"

namespace vkp {
namespace {

std::string plural(size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

size_t countSeverity(const std::vector<Diagnostic>& ds, SeverityKind severity) {
    size_t n = 0;
    for (const Diagnostic& d : ds)
        n += d.severity == severity;
    return n;
}

std::string firstError(const std::vector<Diagnostic>& ds) {
    for (const Diagnostic& d : ds)
        if (d.severity == SeverityKind::Error) return d.message;
    return "";
}

// "all 9 cases pass", and the learner's own cases apart, as they never count towards solving:
// "all 9 cases pass; your cases: 0 of 1 pass".
std::string passLine(const CheckReport& r, const Puzzle* p) {
    size_t own = 0, ownPassed = 0, passed = 0;
    for (const CaseOutcome& c : r.cases) {
        bool isOwn = p && c.index < p->cases.size() && p->cases[c.index].own;
        own += isOwn;
        (isOwn ? ownPassed : passed) += c.pass;
    }
    size_t total = r.cases.size() - own;
    // One case of several (a case file's): that case by its number.
    if (p && total == 1 && own == 0 && p->puzzleCaseCount() > 1)
        return "case " + std::to_string(r.cases.front().index + 1) +
               (r.cases.front().pass ? " passes" : " fails");
    std::string line = passed == total ? "all " + plural(total, "case passes", "cases pass")
                                       : std::to_string(passed) + " of " +
                                             plural(total, "case passes", "cases pass");
    if (own)
        line +=
            "; your cases: " + std::to_string(ownPassed) + " of " + std::to_string(own) + " pass";
    return line;
}

std::string reportLine(const CheckReport& r, const Puzzle* p) {
    // A check can stop before compiling (a puzzle of several kernels given one text): say why.
    if (r.compilerCrashed)
        return "the compiler crashed on this text (the message on the kernel says where); your "
               "text is kept";
    if (!r.compiled() && r.error && countSeverity(r.diagnostics, SeverityKind::Error) == 0)
        return "cannot check: " + r.error->message;
    // Refused before compiling: the kernel enables what the device lacks (case_limits.h).
    if (!r.compiled() && r.error && r.error->kind == ErrorKind::Device)
        return "cannot check on this device: " + r.error->message;
    if (!r.compiled())
        return "does not compile: " +
               plural(countSeverity(r.diagnostics, SeverityKind::Error), "error", "errors");
    // The device cannot run what the kernel uses (check/case_limits.h): the error says so, the
    // diagnostic marks the line.
    if (r.error && r.error->kind == ErrorKind::Device && r.cases.empty())
        return "cannot check on this device: " + r.error->message;
    if (hasErrors(r.diagnostics)) return "does not fit the puzzle: " + firstError(r.diagnostics);
    if (r.error && r.cases.empty()) return "error: " + r.error->message;
    std::string sizes = p ? subgroupSizeVerdict(*p, r) : "";
    // Right here, wrong with other numbers of lanes: that is the news ("right with 8 lanes,
    // wrong with 4 and 16: does the kernel assume a subgroup size?").
    if (!sizes.empty() && !r.error && r.passCount() == r.cases.size()) return sizes;
    // Right as the device orders atomics, wrong the other way round.
    if (sizes.empty() && !r.error && r.reversed && !r.reversed->failures.empty() &&
        r.passCount() == r.cases.size())
        return passLine(r, p) + ", wrong with atomics in reverse lane order (case " +
               std::to_string(r.reversed->failures.front().index + 1) +
               "): the result depends on their order";
    // Right on the puzzle's cases, wrong on one the search generated.
    if (sizes.empty() && !r.error && r.search && r.search->found &&
        r.passCount() == r.cases.size()) {
        const FoundCase& f = *r.search->found;
        return passLine(r, p) + ", but a generated case fails: like case " +
               std::to_string(f.templateCase + 1) + ", N = " + std::to_string(f.n) +
               ", workgroup " + dimsText(f.workgroupSize);
    }
    std::string line = passLine(r, p);
    if (r.error) line += "; " + r.error->message;
    if (!sizes.empty()) line += "; " + sizes;
    return line;
}

// The report on a text the compiler crashed on: that error, nothing run.
CheckReport crashReport(CompileResult compiled, const std::string& file) {
    CheckReport r;
    r.kernelFile = file;
    r.compilerCrashed = true;
    r.diagnostics = std::move(compiled.diagnostics);
    return r;
}

} // namespace

const char* liveStatusName(LiveStatusKind status) {
    switch (status) {
    case LiveStatusKind::Starting:
        return "starting";
    case LiveStatusKind::Idle:
        return "idle";
    case LiveStatusKind::Waiting:
        return "waiting";
    case LiveStatusKind::Compiling:
        return "compiling";
    case LiveStatusKind::Running:
        return "running";
    case LiveStatusKind::Done:
        return "done";
    case LiveStatusKind::DeviceError:
        return "device error";
    case LiveStatusKind::Held:
        return "held";
    }
    return "?";
}

bool LiveSnapshot::busy() const {
    if (besideDue()) return true;
    switch (status) {
    case LiveStatusKind::Starting:
    case LiveStatusKind::Waiting:
    case LiveStatusKind::Compiling:
    case LiveStatusKind::Running:
        return true;
    default:
        return false;
    }
}

std::string statusLine(const LiveSnapshot& s) {
    switch (s.status) {
    case LiveStatusKind::Starting:
        return "starting the device";
    case LiveStatusKind::Idle:
        return "no puzzle open";
    case LiveStatusKind::Waiting:
        return "edited; checking after a pause in typing";
    case LiveStatusKind::Compiling:
        return "compiling";
    case LiveStatusKind::Running: {
        size_t total = s.puzzle ? s.puzzle->cases.size() : 0;
        if (s.current() && !s.report->cases.empty())
            return "checking: " + std::to_string(s.report->cases.size()) + " of " +
                   plural(total, "case", "cases") + " checked";
        return "running " + plural(total, "case", "cases");
    }
    case LiveStatusKind::DeviceError:
        return "no device: " +
               (s.deviceError ? s.deviceError->message : std::string("unknown error"));
    case LiveStatusKind::Done:
        if (!s.report) return "done";
        if (!s.sizesDue.empty()) // "all 5 cases pass with 8 lanes; checking with 4 and 16 lanes"
            return reportLine(*s.report, s.puzzle.get()) +
                   (s.report->lanes ? " with " + std::to_string(s.report->lanes) + " lanes" : "") +
                   "; checking with " + lanesText(s.sizesDue);
        if (s.atomicOrderDue)
            return reportLine(*s.report, s.puzzle.get()) +
                   "; checking with atomics in reverse lane order";
        if (s.searchDue)
            return reportLine(*s.report, s.puzzle.get()) + "; searching generated cases";
        return reportLine(*s.report, s.puzzle.get());
    case LiveStatusKind::Held:
        return "not compiled: this text crashed the compiler last time; compile it anyway to try "
               "again";
    }
    return "";
}

LiveSession::LiveSession(LiveOptions options) : m_options(std::move(options)) {
    if (m_options.subgroupSizeFactory)
        m_sizes = std::make_unique<SubgroupSizeDevices>(m_options.subgroupSizeFactory);
    m_worker = std::thread([this] { workerMain(); });
}

LiveSession::~LiveSession() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        // Quitting does not wait for a check under way (a traced multi-pass check on a software
        // device can take minutes): its worker is stopped, and what it was doing is dropped.
        if (m_inJob && m_runner) m_runner->interrupt();
    }
    if (m_sizes) m_sizes->interrupt(); // runs at other subgroup sizes are dropped too
    m_wake.notify_all();
    m_worker.join();
    if (m_runner && m_runner->wedged())
        (void)m_runner.release(); // see OwnedInProcessRunner (check/runner.cpp)
}

void LiveSession::open(const Puzzle& puzzle, std::string text, bool check) {
    {
        std::lock_guard lock(m_mutex);
        m_held = !check;
        m_state.puzzle = std::make_shared<const Puzzle>(puzzle);
        m_state.report.reset();
        m_state.reportSource.reset();
        m_state.aside.reset();
        m_state.asideKey = 0;
        m_aside.reset();
        m_state.reportRevision = 0;
        m_text = std::move(text);
        ++m_state.revision;
        m_due = Clock::now();
        if (m_state.status != LiveStatusKind::Starting && !m_state.deviceError)
            m_state.status = waitingStatus();
    }
    m_wake.notify_all();
    m_published.notify_all(); // a held text is settled
}

void LiveSession::edit(std::string text) {
    {
        std::lock_guard lock(m_mutex);
        if (text == m_text) return;
        m_held = false;
        m_text = std::move(text);
        ++m_state.revision;
        m_due = Clock::now() + m_options.debounce;
        if (m_state.status != LiveStatusKind::Starting && !m_state.deviceError)
            m_state.status = LiveStatusKind::Waiting;
    }
    m_wake.notify_all();
}

void LiveSession::recheck() {
    {
        std::lock_guard lock(m_mutex);
        m_held = false;
        ++m_state.revision;
        m_due = Clock::now();
        if (m_state.status != LiveStatusKind::Starting && !m_state.deviceError)
            m_state.status = LiveStatusKind::Waiting;
    }
    m_wake.notify_all();
}

void LiveSession::selectDevice(std::string selector) {
    {
        std::lock_guard lock(m_mutex);
        m_deviceRequest = std::move(selector);
    }
    m_wake.notify_all();
}

void LiveSession::checkAside(uint64_t key, std::string text, size_t caseIndex) {
    {
        std::lock_guard lock(m_mutex);
        m_aside = Job{m_state.puzzle, std::move(text), 0, key, caseIndex};
    }
    m_wake.notify_all();
}

LiveSnapshot LiveSession::snapshot() const {
    std::lock_guard lock(m_mutex);
    return m_state;
}

bool LiveSession::waitUntilSettled(std::chrono::milliseconds timeout) const {
    std::unique_lock lock(m_mutex);
    return m_published.wait_for(lock, timeout, [this] {
        if (m_deviceRequest) return false;
        if (m_state.status == LiveStatusKind::DeviceError || m_state.status == LiveStatusKind::Held)
            return true;
        if (!m_state.puzzle) return m_state.status != LiveStatusKind::Starting;
        return m_state.status == LiveStatusKind::Done && m_state.current() && !m_state.besideDue();
    });
}

bool LiveSession::abandonedDevice() const {
    std::lock_guard lock(m_mutex);
    return m_abandoned;
}

void LiveSession::workerMain() {
    m_compiler = std::make_unique<Compiler>();
    startDevice(m_options.deviceSelector);
    std::unique_lock lock(m_mutex);
    for (;;) {
        if (m_deviceRequest) {
            std::string selector = *m_deviceRequest;
            m_deviceRequest.reset();
            m_state.status = LiveStatusKind::Starting;
            lock.unlock();
            startDevice(selector);
            lock.lock();
            continue;
        }
        Job job;
        if (!nextJob(lock, job)) return;
        if (!job.puzzle) continue; // woken for a device change
        m_inJob = true;
        lock.unlock();
        runJob(job);
        lock.lock();
        m_inJob = false;
    }
}

Result<std::unique_ptr<DeviceRunner>> LiveSession::openRunner(const std::string& selector) {
    // Checked, not timed: compiled fast (ContextOptions::quickCompile).
    return openDeviceRunner(m_options.runnerFactory, {selector, false, true});
}

// Opens the device beside the compiler's first (table-building) compile.
void LiveSession::startDevice(const std::string& selector) {
    {
        std::lock_guard lock(m_mutex);
        m_state.status = LiveStatusKind::Starting;
    }
    if (m_runner && m_runner->wedged()) (void)m_runner.release();
    m_runner.reset();
    m_selector = selector;
    auto opened = std::async(std::launch::async, [this, selector] { return openRunner(selector); });
    auto devices = GpuContext::listDevices();
    m_compiler->warmUp();
    auto runner = opened.get();
    {
        std::lock_guard lock(m_mutex);
        if (devices) m_state.devices = *devices;
        if (runner) {
            m_runner = std::move(*runner);
            m_state.device = m_runner->info();
            m_state.deviceError.reset();
        } else {
            m_state.device.reset();
            m_state.deviceError = runner.error();
        }
        m_checkedRevision = 0; // whatever is open is checked again on this device
        m_due = Clock::now();
        if (m_state.deviceError)
            m_state.status = LiveStatusKind::DeviceError;
        else
            m_state.status = m_state.puzzle ? waitingStatus() : LiveStatusKind::Idle;
    }
    m_published.notify_all();
}

// Waits for a text to check and for the pause in typing; false when the session stops.
bool LiveSession::nextJob(std::unique_lock<std::mutex>& lock, Job& job) {
    auto due = [this] {
        return m_state.puzzle && m_runner && !m_held && m_state.revision != m_checkedRevision;
    };
    auto aside = [this] { return m_aside && m_aside->puzzle && m_runner; };
    m_wake.wait(lock, [&] { return m_stop || m_deviceRequest || due() || aside(); });
    // An aside check runs while the learner's text waits for its pause in typing (or has none).
    if (!m_stop && !m_deviceRequest && aside() && (!due() || Clock::now() < m_due)) {
        job = std::move(*m_aside);
        m_aside.reset();
        return true;
    }
    while (!m_stop && !m_deviceRequest && Clock::now() < m_due)
        m_wake.wait_until(lock, m_due);
    if (m_stop) return false;
    if (m_deviceRequest || !due()) return true;
    job = {m_state.puzzle, m_text, m_state.revision};
    m_checkedRevision = job.revision;
    m_state.status = LiveStatusKind::Compiling;
    return true;
}

void LiveSession::runJob(const Job& job) {
    // Compiling first (1-2 ms warm) lets the status line say when the run starts. A text the
    // compiler crashed on is not compiled twice: its report is that crash.
    if (!job.asideKey) {
        CompileResult compiled = m_compiler->compile(job.text, m_options.kernelFile);
        if (compiled.compilerCrashed)
            return publish(job, crashReport(std::move(compiled), m_options.kernelFile));
        if (compiled.ok()) setStatus(job.revision, LiveStatusKind::Running);
    }
    CheckReport report;
    try {
        if (job.puzzle != m_roomPuzzle) {
            m_roomPuzzle = job.puzzle;
            m_traceRoom = {};
        }
        CheckOptions options;
        options.timeoutMs = m_options.timeoutMs;
        options.trace = m_options.trace || job.asideKey.has_value();
        if (!job.asideKey) options.traceRoom = &m_traceRoom; // the learner's kernel's room
        if (job.asideKey) options.onlyCase = job.caseIndex;
        if (!job.asideKey)
            options.onCase = [&](const CheckReport& partial) { publishPartial(job, partial); };
        report = checkKernelText(*m_compiler, *m_runner, *job.puzzle, job.text,
                                 m_options.kernelFile, options);
    } catch (const std::exception& e) {
        report.error = Error{ErrorKind::Internal, std::string("the check failed: ") + e.what()};
    }
    {
        std::lock_guard lock(m_mutex);
        m_inJob = false;    // from here on m_runner may be replaced (abandon)
        if (m_stop) return; // interrupted on the way out: nobody reads this report
    }
    if (m_runner->wedged()) abandon();
    if (job.asideKey) return publishAside(job, std::move(report));
    bool sizes = m_sizes && subgroupSizesApply(report);
    bool order = reversedOrderApplies(report);
    bool search = caseSearchApplies(*job.puzzle, report);
    if (!sizes && !order && !search) return publish(job, std::move(report));
    publish(job, report, sizes ? sizesBeside(m_runner->info()) : std::vector<uint32_t>{}, order,
            search);
    if (sizes) checkSizes(job, report);
    if (order)
        runBeside(job, report, m_state.atomicOrderDue, [&](const auto& sources, auto& o) {
            checkReversedOrder(*m_compiler, *m_runner, *job.puzzle, sources, o, report);
        });
    // The same text searches the same cases (its seed is the text's): a verdict that does not
    // change between two looks at one kernel.
    uint64_t seed = std::hash<std::string>{}(job.text) % 1000000000ull;
    if (search)
        runBeside(job, report, m_state.searchDue, [&](const auto& sources, auto& o) {
            searchCases(*m_compiler, *m_runner, *job.puzzle, sources, o, seed, report);
        });
}

bool LiveSession::stale(const Job& job) const {
    std::lock_guard lock(m_mutex);
    return m_stop || job.revision != m_state.revision || job.puzzle != m_state.puzzle;
}

void LiveSession::checkSizes(const Job& job, CheckReport& report) {
    if (auto sources = kernelTextSources(*job.puzzle, job.text, m_options.kernelFile)) {
        CheckOptions options;
        options.timeoutMs = m_options.timeoutMs;
        options.trace = m_options.trace; // judged at every size as at the device's own
        options.traceRoom = &m_traceRoom;
        options.stopRequested = [&] { return stale(job); };
        checkOtherSubgroupSizes(*m_compiler, *m_sizes, *job.puzzle, *sources, options, report,
                                [&](const CheckReport& sofar, const SubgroupSizeRun& ended) {
                                    publishSizes(job, sofar, ended.lanes);
                                });
    }
    {
        std::lock_guard lock(m_mutex);
        if (job.revision == m_state.revision && job.puzzle == m_state.puzzle)
            m_state.sizesDue.clear();
    }
    m_published.notify_all();
}

// After the sizes, on the learner's device: a run beside the check (atomics in reverse lane
// order, the puzzle's searches), published as it ends, its `due` flag (in m_state, written under
// m_mutex) cleared.
void LiveSession::runBeside(
    const Job& job, CheckReport& report, bool& due,
    const std::function<void(const std::vector<KernelSource>&, CheckOptions&)>& run) {
    if (stale(job)) return;
    if (auto sources = kernelTextSources(*job.puzzle, job.text, m_options.kernelFile)) {
        CheckOptions options;
        options.timeoutMs = m_options.timeoutMs;
        options.stopRequested = [&] { return stale(job); };
        run(*sources, options);
    }
    if (stale(job)) return; // a newer edit: the run is left out rather than shown half done
    auto shown = std::make_shared<CheckReport>(report);
    hideHiddenCases(*shown, *job.puzzle);
    {
        std::lock_guard lock(m_mutex);
        if (job.revision == m_state.revision && job.puzzle == m_state.puzzle) {
            m_state.report = std::move(shown);
            due = false;
        }
    }
    m_published.notify_all();
}

void LiveSession::publishSizes(const Job& job, const CheckReport& sofar, uint32_t lanes) {
    auto report = std::make_shared<CheckReport>(sofar);
    hideHiddenCases(*report, *job.puzzle);
    {
        std::lock_guard lock(m_mutex);
        if (job.revision != m_state.revision || job.puzzle != m_state.puzzle) return;
        std::erase(m_state.sizesDue, lanes);
        m_state.report = std::move(report);
    }
    m_published.notify_all();
}

void LiveSession::publishAside(const Job& job, CheckReport report) {
    hideHiddenCases(report, *job.puzzle);
    {
        std::lock_guard lock(m_mutex);
        m_state.aside = std::make_shared<const CheckReport>(std::move(report));
        m_state.asideKey = *job.asideKey;
    }
    m_published.notify_all();
}

// An in-process device still runs a kernel that did not finish: leave it and open a fresh one.
// (A worker process is restarted by its runner and never gets here.)
void LiveSession::abandon() {
    (void)m_runner.release();
    auto runner = openRunner(m_selector);
    std::lock_guard lock(m_mutex);
    m_abandoned = true;
    m_state.notice =
        "A kernel did not finish in time; a fresh device was started. Your text is unchanged.";
    if (runner)
        m_runner = std::move(*runner);
    else
        m_state.deviceError = runner.error();
}

void LiveSession::publish(const Job& job, CheckReport report, std::vector<uint32_t> sizesDue,
                          bool atomicOrderDue, bool searchDue) {
    hideHiddenCases(report, *job.puzzle); // the app is the learner's: hidden cases stay hidden
    {
        std::lock_guard lock(m_mutex);
        ++m_state.checksRun;
        if (m_state.deviceError) m_state.status = LiveStatusKind::DeviceError;
        // A report about older text (or another puzzle) is dropped: the newer text is due.
        if (job.revision == m_state.revision && job.puzzle == m_state.puzzle) {
            m_state.report = std::make_shared<const CheckReport>(std::move(report));
            m_state.reportSource = std::make_shared<const std::string>(job.text);
            m_state.reportRevision = job.revision;
            m_state.sizesDue = std::move(sizesDue);
            m_state.atomicOrderDue = atomicOrderDue;
            m_state.searchDue = searchDue;
            if (!m_state.deviceError) m_state.status = LiveStatusKind::Done;
        }
    }
    m_published.notify_all();
}

// A check under way: the cases decided so far, shown while the others run (the status stays
// Running; puzzleCasesPass needs the whole report, so nothing counts as solved yet).
void LiveSession::publishPartial(const Job& job, const CheckReport& partial) {
    auto report = std::make_shared<CheckReport>(partial);
    hideHiddenCases(*report, *job.puzzle);
    {
        std::lock_guard lock(m_mutex);
        if (job.revision != m_state.revision || job.puzzle != m_state.puzzle) return;
        m_state.report = std::move(report);
        m_state.reportSource = std::make_shared<const std::string>(job.text);
        m_state.reportRevision = job.revision;
    }
    m_published.notify_all();
}

void LiveSession::setStatus(uint64_t revision, LiveStatusKind status) {
    std::lock_guard lock(m_mutex);
    if (revision == m_state.revision) m_state.status = status;
}

} // namespace vkp
