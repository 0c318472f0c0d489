#include "check/subgroup_sizes.h"

#include <algorithm>
#include <condition_variable>
#include <set>
#include <thread>

#include "base/os.h"
#include "check/compile_stage.h"
#include "gpu/device_runner.h"

namespace vkp {
namespace {

SubgroupSizeRun sizeRun(uint32_t lanes, const Puzzle& puzzle, const CheckReport& r) {
    SubgroupSizeRun run;
    run.lanes = lanes;
    if (r.error) run.error = r.error;
    for (const CaseOutcome& c : r.cases) {
        ++run.casesRun;
        if (!c.pass) run.failures.push_back({c.index, caseFailureDetail(puzzle, c), bool(c.error)});
    }
    return run;
}

// "4, 8 and 16", in increasing order.
std::string numbersText(std::vector<uint32_t> numbers) {
    std::sort(numbers.begin(), numbers.end());
    std::string s;
    for (size_t i = 0; i < numbers.size(); ++i)
        s += (i == 0 ? "" : i + 1 == numbers.size() ? " and " : ", ") + std::to_string(numbers[i]);
    return s;
}

} // namespace

bool emulatedSize(uint32_t lanes) {
    return std::find(std::begin(kCpuSubgroupSizes), std::end(kCpuSubgroupSizes), lanes) ==
           std::end(kCpuSubgroupSizes);
}

std::vector<uint32_t> sizesBeside(const DeviceInfo& device) {
    std::vector<uint32_t> out;
    for (uint32_t lanes : kCpuSubgroupSizes)
        if (lanes != device.subgroupSize) out.push_back(lanes);
    for (uint32_t lanes : kEmulatedSubgroupSizes)
        if (lanes != device.subgroupSize) out.push_back(lanes);
    return out;
}

SubgroupSizeDevices::SubgroupSizeDevices(RunnerFactory factory, bool quickCompile)
    : m_factory(std::move(factory)), m_quickCompile(quickCompile) {}

SubgroupSizeDevices::~SubgroupSizeDevices() = default;

Result<DeviceRunner*> SubgroupSizeDevices::device(uint32_t lanes) {
    std::lock_guard lock(m_mutex);
    if (auto it = m_devices.find(lanes); it != m_devices.end()) return it->second.get();
    if (auto it = m_failures.find(lanes); it != m_failures.end()) return it->second;
    ContextOptions options;
    options.deviceSelector = "cpu";
    options.quickCompile = m_quickCompile;
    uint32_t real = emulatedSize(lanes) ? kEmulatingLanes : lanes;
    options.subgroupLanes = real;
    auto opened = openDeviceRunner(m_factory, options);
    Error why;
    if (!opened)
        why = Error{opened.error().kind, "no CPU device with " + std::to_string(lanes) +
                                             " lanes: " + opened.error().message};
    else if ((*opened)->info().type != DeviceTypeKind::Cpu)
        why = Error{ErrorKind::Device, "no CPU Vulkan driver to run at other subgroup sizes (" +
                                           os::cpuVulkanDriverAdvice() + ")"};
    else if ((*opened)->info().subgroupSize != real)
        why = Error{ErrorKind::Device, (*opened)->info().name + " started with " +
                                           std::to_string((*opened)->info().subgroupSize) +
                                           " lanes, not " + std::to_string(real)};
    else
        return (m_devices[lanes] = std::move(*opened)).get();
    m_failures[lanes] = why;
    return why;
}

void SubgroupSizeDevices::interrupt() {
    std::lock_guard lock(m_mutex);
    for (auto& [lanes, device] : m_devices)
        device->interrupt();
}

namespace {

// The cases worth running at other sizes: those the device's own run finished. A case that never
// finished, lost the device or crashed the worker (and the cases it stopped) has had its budget:
// another size would only wait it out again.
std::vector<size_t> casesThatRan(const CheckReport& report) {
    std::vector<size_t> ran;
    for (const CaseOutcome& c : report.cases)
        if (!c.error) ran.push_back(c.index);
    return ran;
}

} // namespace

namespace {

// Which cases each size beside runs, and which it carries. A workgroup of W threads is one
// subgroup at every size of W lanes or more, and there a kernel that reads nothing telling sizes
// apart (KernelInterface::readsSubgroupSize) does the same at each: such a case runs at the
// smallest of those sizes (none where it passed at the device's own), and the larger ones carry
// its verdict from there.
struct SizePlan {
    std::map<uint32_t, std::vector<size_t>> runs; // lanes -> the cases run there, in order
    // lanes -> case -> the size it ran at (the device's own, or a smaller one beside)
    std::map<uint32_t, std::map<size_t, uint32_t>> carries;
};

SizePlan planSizes(const Puzzle& puzzle, const std::vector<CompiledKernel>& kernels,
                   const CheckReport& report, std::vector<uint32_t> sizes) {
    std::sort(sizes.begin(), sizes.end());
    bool tells = std::any_of(kernels.begin(), kernels.end(),
                             [](const CompiledKernel& k) { return k.iface.readsSubgroupSize; });
    SizePlan plan;
    for (const CaseOutcome& own : report.cases) {
        if (own.error) continue; // it had its budget (casesThatRan)
        const auto& size = puzzle.cases.at(own.index).workgroupSize;
        uint64_t threads = uint64_t(size[0]) * size[1] * size[2];
        uint32_t ranAt =
            !tells && threads <= report.lanes && verdictOf(own) == Verdict::Pass ? report.lanes : 0;
        for (uint32_t lanes : sizes) {
            if (tells || threads > lanes) {
                plan.runs[lanes].push_back(own.index);
            } else if (ranAt) {
                plan.carries[lanes][own.index] = ranAt;
            } else {
                plan.runs[lanes].push_back(own.index);
                ranAt = lanes;
            }
        }
    }
    return plan;
}

// The cases `lanes` carries join its run: a pass, or the failure the size they ran at found.
void carryCases(const SizePlan& plan, const std::map<uint32_t, SubgroupSizeRun>& ended,
                uint32_t ownLanes, SubgroupSizeRun& run) {
    auto carried = plan.carries.find(run.lanes);
    if (carried == plan.carries.end() || run.error) return;
    for (auto [index, at] : carried->second) {
        if (at != ownLanes) {
            auto source = ended.find(at);
            if (source == ended.end() || source->second.error) continue; // no verdict there
            for (const CaseFailure& f : source->second.failures)
                if (f.index == index) run.failures.push_back(f);
        }
        run.carried.push_back({index, at});
        ++run.casesRun;
    }
    std::sort(run.failures.begin(), run.failures.end(),
              [](const CaseFailure& a, const CaseFailure& b) { return a.index < b.index; });
}

// The cases of `r` (one size's run) that crashed the worker process, and the cases that crash
// stopped, run once more in a fresh one: a crash the machine caused (memory ran out, a driver's
// hiccup) is no verdict on the kernel. A case that crashes it again keeps its error.
// The case itself crashed the worker (not one a crash before it stopped: check.cpp's notRun).
bool crashedWhileRunning(const CaseOutcome& c) {
    return c.error && c.error->kind == ErrorKind::WorkerCrashed &&
           c.error->message.find("was not run") == std::string::npos;
}

void runAgainAfterCrash(DeviceRunner& device, const Puzzle& puzzle,
                        const std::vector<CompiledKernel>& kernels, const CheckOptions& options,
                        const CheckReport& compiled, CheckReport& r) {
    std::vector<size_t> again;
    for (const CaseOutcome& c : r.cases)
        if (c.error && c.error->kind == ErrorKind::WorkerCrashed) again.push_back(c.index);
    if (again.empty() || (options.stopRequested && options.stopRequested())) return;
    CheckOptions once = options;
    once.someCases = again;
    CheckReport second = compiled;
    runCompiled(device, puzzle, kernels, once, second);
    for (CaseOutcome& c : second.cases) {
        auto at = std::find_if(r.cases.begin(), r.cases.end(),
                               [&](const CaseOutcome& o) { return o.index == c.index; });
        if (at == r.cases.end()) continue;
        if (crashedWhileRunning(*at) && crashedWhileRunning(c))
            c.error->message += ", and crashed again when run a second time in a new one";
        *at = std::move(c);
    }
}

} // namespace

bool subgroupSizesApply(const CheckReport& report) {
    return report.usesSubgroups && report.compiled() && !report.error &&
           !hasErrors(report.diagnostics) && !casesThatRan(report).empty();
}

void checkOtherSubgroupSizes(const Compiler& compiler, SubgroupSizeDevices& devices,
                             const Puzzle& puzzle, const std::vector<KernelSource>& sources,
                             const CheckOptions& options, CheckReport& report,
                             const SizeEnded& onSize) {
    if (!subgroupSizesApply(report)) return;
    // Judged as the device's own size is (traced where it was: races, out-of-bounds, barrier
    // rounds... at this number of lanes), without its forced schedules (they hold workgroups,
    // which no number of lanes changes) or its efficiency limits (they model the device's own
    // lanes), and with a trace room of its own.
    CheckOptions plain = options;
    plain.forcedSchedules = false;
    plain.efficiencyLimits = false;
    plain.traceRoom = nullptr;
    plain.onCase = nullptr;
    // Only the cases the device's own check ran to the end (all of them, or the one asked for).
    plain.onlyCase.reset();
    CheckReport compiled;
    std::vector<CompiledKernel> kernels =
        compileProgram(compiler, puzzle, sources, plain, compiled);
    if (compiled.reached != StageKind::Pipeline || compiled.error) return;
    DeviceInfo own;
    own.subgroupSize = report.lanes;
    const std::vector<uint32_t> sizes = sizesBeside(own);
    const SizePlan plan = planSizes(puzzle, kernels, report, sizes);
    // Each size starts from the room the device's own size remembers, and keeps what it learns
    // to itself (the sizes run at once).
    const TraceRoomMemory startRoom = options.traceRoom ? *options.traceRoom : TraceRoomMemory{};
    std::mutex lock;
    std::condition_variable endedOne;
    std::map<uint32_t, SubgroupSizeRun> ended; // each size's own run, as it ends
    std::set<uint32_t> over;                   // sizes done (ended, or stopped)
    std::vector<std::thread> threads;
    for (uint32_t lanes : sizes)
        threads.emplace_back([&, lanes] {
            SubgroupSizeRun run;
            run.lanes = lanes;
            auto cases = plan.runs.find(lanes);
            bool stopped = false;
            if (cases != plan.runs.end()) {
                auto device = devices.device(lanes);
                if (!device) {
                    run.error = device.error();
                } else {
                    CheckReport r = compiled;
                    TraceRoomMemory room = startRoom;
                    CheckOptions sized = plain;
                    sized.someCases = cases->second;
                    if (sized.trace) sized.traceRoom = &room;
                    if (emulatedSize(lanes)) sized.emulatedLanes = lanes;
                    runCompiled(**device, puzzle, kernels, sized, r);
                    runAgainAfterCrash(**device, puzzle, kernels, sized, compiled, r);
                    stopped = plain.stopRequested && plain.stopRequested();
                    run = sizeRun(lanes, puzzle, r);
                    run.device = (*device)->info().name;
                }
            }
            std::unique_lock held(lock);
            if (!stopped) ended[lanes] = run;
            over.insert(lanes);
            endedOne.notify_all();
            if (stopped) return;
            // The sizes it carries cases from end first (smaller ones: no cycle).
            endedOne.wait(held, [&] {
                auto carried = plan.carries.find(lanes);
                if (carried == plan.carries.end()) return true;
                return std::all_of(carried->second.begin(), carried->second.end(),
                                   [&](const auto& c) {
                                       return c.second == report.lanes || over.count(c.second);
                                   });
            });
            carryCases(plan, ended, report.lanes, run);
            if (run.casesRun == 0 && !run.error) return; // nothing ran or carried
            auto at = std::find_if(report.otherSizes.begin(), report.otherSizes.end(),
                                   [&](const SubgroupSizeRun& s) { return s.lanes > lanes; });
            at = report.otherSizes.insert(at, std::move(run));
            if (onSize) onSize(report, *at);
        });
    for (std::thread& t : threads)
        t.join();
}

namespace {

// " (32 and 64 emulated)", or "" where none of `lanes` is.
std::string emulatedNote(const std::vector<uint32_t>& lanes) {
    std::vector<uint32_t> emulated;
    for (uint32_t n : lanes)
        if (emulatedSize(n)) emulated.push_back(n);
    return emulated.empty() ? "" : " (" + numbersText(emulated) + " emulated)";
}

} // namespace

std::string lanesText(const std::vector<uint32_t>& lanes) {
    return numbersText(lanes) + " lanes" + emulatedNote(lanes);
}

std::string carriedText(const SubgroupSizeRun& run) {
    std::map<uint32_t, std::vector<uint32_t>> from; // lanes -> cases (1-based)
    for (const SubgroupSizeRun::Carried& c : run.carried)
        from[c.lanes].push_back(uint32_t(c.index + 1));
    std::string text;
    for (const auto& [lanes, cases] : from)
        text += std::string(text.empty() ? "" : ", ") + (cases.size() == 1 ? "case " : "cases ") +
                numbersText(cases) + " as with " + std::to_string(lanes) +
                (text.empty() ? " lanes" : "");
    return text.empty() ? "" : text + " (a workgroup is one subgroup at both sizes)";
}

std::string sizeName(uint32_t lanes) {
    return std::to_string(lanes) + " lanes" + (emulatedSize(lanes) ? " (emulated)" : "");
}

std::string subgroupSizeVerdict(const Puzzle& puzzle, const CheckReport& report) {
    std::vector<uint32_t> right, wrong, others;
    // How the wrong sizes are wrong (the first wrong cell and its value): alike, or not.
    std::set<std::string> ways;
    auto firstWrongCell = [&](const CaseOutcome& c) {
        for (const BufferOutcome& b : c.outputs)
            if (!b.comparison.pass && !b.comparison.mismatches.empty())
                ways.insert(std::to_string(c.index) + ": " + caseFailureDetail(puzzle, c));
    };
    // A size where some case could not run (the worker crashed twice, it never finished) and
    // none came out wrong is neither right nor wrong: such sizes are named with the first one's
    // first such case.
    const CaseFailure* unrun = nullptr;
    std::vector<uint32_t> unrunLanes;
    for (const SubgroupSizeRun& s : report.otherSizes) {
        if (s.error || s.casesRun == 0) continue;
        others.push_back(s.lanes);
        auto answered = std::find_if(s.failures.begin(), s.failures.end(),
                                     [](const CaseFailure& f) { return !f.error; });
        if (s.failures.empty() || answered != s.failures.end()) {
            (s.pass() ? right : wrong).push_back(s.lanes);
        } else {
            if (!unrun) unrun = &s.failures.front();
            unrunLanes.push_back(s.lanes);
        }
        if (answered != s.failures.end())
            ways.insert(std::to_string(answered->index) + ": " + answered->detail);
    }
    if (others.empty() || report.lanes == 0 || report.cases.empty()) return "";
    const std::string notRun =
        unrun ? "not judged with " + lanesText(unrunLanes) + ": " +
                    (unrun->detail.empty()
                         ? "case " + std::to_string(unrun->index + 1) + " could not run"
                         : unrun->detail)
              : "";
    // A case whose trace could not hold everything (inconclusive) is neither right nor wrong: it
    // says nothing about the subgroup size.
    auto failed = std::find_if(report.cases.begin(), report.cases.end(),
                               [](const CaseOutcome& c) { return verdictOf(c) == Verdict::Fail; });
    bool unsure = std::any_of(report.cases.begin(), report.cases.end(), [](const CaseOutcome& c) {
        return verdictOf(c) == Verdict::Inconclusive;
    });
    if (failed == report.cases.end()) {
        if (wrong.empty() && !unrun) return ""; // right with every size
        if (!unsure) right.push_back(report.lanes);
    } else {
        wrong.push_back(report.lanes);
        firstWrongCell(*failed);
    }
    const char* question = ": does the kernel assume a subgroup size?";
    std::string said;
    if (!right.empty() && !wrong.empty())
        said = "right with " + lanesText(right) + ", wrong with " + numbersText(wrong) +
               emulatedNote(wrong) + question;
    else if (right.empty() && ways.size() > 1)
        said = "wrong with " + lanesText(wrong) + ", and differently with each" + question;
    else if (wrong.empty() && !right.empty())
        said = "right with " + lanesText(right);
    if (notRun.empty()) return said;
    return said.empty() ? notRun : said + "; " + notRun;
}

} // namespace vkp
