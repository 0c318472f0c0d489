#include "session/background_bench.h"

#include "base/install_paths.h"
#include "base/text_file.h"
#include "check/kernel_text.h"
#include "gpu/device_runner.h"
#include "puzzle/kernel_sections.h"
#include "shader/compiler.h"

namespace vkp {

BackgroundBench::BackgroundBench(RunnerFactory factory, std::string deviceSelector)
    : m_factory(std::move(factory)), m_selector(std::move(deviceSelector)) {}

BackgroundBench::~BackgroundBench() {
    stopThread();
}

void BackgroundBench::setDevice(std::string selector) {
    std::lock_guard lock(m_mutex);
    m_selector = std::move(selector);
}

void BackgroundBench::stopThread() {
    cancel();
    if (m_thread.joinable()) m_thread.join();
}

void BackgroundBench::start(const Puzzle& puzzle, std::string text, BenchOptions options) {
    stopThread();
    m_cancelled = false;
    {
        std::lock_guard lock(m_mutex);
        m_view = BackgroundBenchView{BackgroundBenchState::Running,
                                     puzzle.key(),
                                     options.n,
                                     "starting a device",
                                     std::nullopt,
                                     std::nullopt,
                                     std::nullopt};
    }
    auto copy = std::make_shared<const Puzzle>(puzzle);
    m_thread = std::thread([this, copy, text = std::move(text), options]() mutable {
        run(copy, std::move(text), std::move(options));
    });
}

void BackgroundBench::cancel() {
    std::lock_guard lock(m_mutex);
    if (m_view.state != BackgroundBenchState::Running) return;
    m_cancelled = true;
    m_view.state = BackgroundBenchState::Cancelled;
    m_view.step.clear();
    if (m_runner) m_runner->interrupt();
}

BackgroundBenchView BackgroundBench::view() const {
    std::lock_guard lock(m_mutex);
    return m_view;
}

void BackgroundBench::finish(BackgroundBenchState state, std::optional<BenchReport> report,
                             std::optional<Error> error, std::optional<BenchReport> official) {
    std::lock_guard lock(m_mutex);
    m_runner = nullptr;
    if (m_cancelled) return; // the view already says so; what came back is dropped
    m_view.state = state;
    m_view.step.clear();
    m_view.report = std::move(report);
    m_view.official = std::move(official);
    m_view.error = std::move(error);
}

namespace {

// The official solution's kernels, unless the editor holds exactly them (nothing to compare).
std::optional<std::vector<KernelSource>> officialBeside(const Puzzle& puzzle,
                                                        const std::vector<KernelSource>& sources) {
    auto official = readKernelSources(puzzle, true);
    if (!official) return std::nullopt;
    bool same = official->size() == sources.size();
    for (size_t k = 0; same && k < sources.size(); ++k)
        same = (*official)[k].text == sources[k].text;
    if (same) return std::nullopt;
    return std::move(*official);
}

} // namespace

void BackgroundBench::run(std::shared_ptr<const Puzzle> puzzle, std::string text,
                          BenchOptions options) {
    auto sections = splitKernelText(*puzzle, text);
    if (!sections) return finish(BackgroundBenchState::Failed, std::nullopt, sections.error());
    std::vector<KernelSource> sources;
    for (const KernelSection& s : *sections)
        sources.push_back(s.source);
    auto copySource = readTextFile(bundledShaderPath("copy.comp"));
    if (!copySource)
        return finish(BackgroundBenchState::Failed, std::nullopt,
                      Error{ErrorKind::NotFound,
                            "the copy shader is missing: " + copySource.error().message});
    std::string selector;
    {
        std::lock_guard lock(m_mutex);
        selector = m_selector;
    }
    auto runner = openDeviceRunner(m_factory, {selector, false});
    if (!runner) return finish(BackgroundBenchState::Failed, std::nullopt, runner.error());
    {
        std::lock_guard lock(m_mutex);
        if (m_cancelled) return finish(BackgroundBenchState::Cancelled, std::nullopt, std::nullopt);
        m_runner = runner->get();
    }
    options.progress = [this](const std::string& step) {
        std::lock_guard lock(m_mutex);
        if (!m_cancelled) m_view.step = step;
    };
    Compiler compiler;
    auto official = officialBeside(*puzzle, sources);
    auto r = benchBeside(compiler, **runner, *puzzle, sources, official ? &*official : nullptr,
                         *copySource, options);
    if (!r) return finish(BackgroundBenchState::Failed, std::nullopt, r.error());
    finish(BackgroundBenchState::Done, std::move(r->yours), std::nullopt, std::move(r->official));
}

} // namespace vkp
