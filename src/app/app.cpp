#include "app/app.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>
#include <utility>

#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include "app/frame_stats.h"
#include "base/install_paths.h"
#include "base/os.h"
#include "check/runner.h"
#include "device/device_options.h"
#include "platform/imgui_keys.h"
#include "platform/png.h"
#include "platform/renderer.h"
#include "platform/window.h"
#include "puzzle/passes.h"
#include "report/case_file.h"
#include "session/live_session.h"
#include "ui/main_view.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/view_export.h"
#include "workbench/workbench.h"

namespace vkp::app {
namespace {

using Clock = std::chrono::steady_clock;

// SIGINT / SIGTERM (Ctrl+C in the terminal, a logout) close the app like its window: drafts,
// progress and settings are saved on the way out.
volatile std::sig_atomic_t g_quit = 0;
void onSignal(int) {
    g_quit = 1;
}

constexpr float kMinFontScale = 0.6f, kMaxFontScale = 3.0f;
constexpr auto kScreenshotTimeout = std::chrono::seconds(120);

// A fingerprint of everything a frame would draw: equal fingerprints, equal pictures.
uint64_t fingerprint(const ImDrawData* d) {
    uint64_t h = 1469598103934665603ull;
    auto mix = [&h](const void* p, size_t n) {
        const auto* b = static_cast<const unsigned char*>(p);
        for (size_t i = 0; i + 8 <= n; i += 8) {
            uint64_t w;
            std::memcpy(&w, b + i, 8);
            h = (h ^ w) * 1099511628211ull;
        }
        for (size_t i = n & ~size_t(7); i < n; ++i)
            h = (h ^ b[i]) * 1099511628211ull;
    };
    mix(&d->DisplaySize, sizeof d->DisplaySize);
    for (int l = 0; l < d->CmdListsCount; ++l) {
        const ImDrawList* list = d->CmdLists[l];
        mix(list->VtxBuffer.Data, list->VtxBuffer.size_in_bytes());
        mix(list->IdxBuffer.Data, list->IdxBuffer.size_in_bytes());
        for (const ImDrawCmd& c : list->CmdBuffer) {
            mix(&c.ClipRect, sizeof c.ClipRect);
            mix(&c.TextureId, sizeof c.TextureId);
            mix(&c.ElemCount, sizeof c.ElemCount);
            mix(&c.IdxOffset, sizeof c.IdxOffset);
            mix(&c.VtxOffset, sizeof c.VtxOffset);
        }
    }
    return h;
}

float roundScale(float s) {
    return std::clamp(std::round(s * 10) / 10, kMinFontScale, kMaxFontScale);
}

class App {
  public:
    explicit App(const AppOptions& o) : m_o(o) {}
    int run();

  private:
    Status start();
    Status checkDispatchOption() const;
    void applyScale();
    Status frame(bool capture);
    void handleRequests();
    bool screenshotDue();
    void simulateTyping();
    void prepareScreenshotState();
    void applyPendingScript();
    bool exportDue();
    void writeExport(const std::string& view);
    void updateTitle();
    void writeLayout();
    int shutdown(int status);

    AppOptions m_o;
    std::unique_ptr<platform::Window> m_window;
    std::unique_ptr<platform::Renderer> m_renderer;
    std::unique_ptr<ui::Workbench> m_wb;
    ui::MainView m_view;
    views::ViewState m_state;
    ui::FrameInfo m_info;
    float m_appliedScale = 0;
    ThemeKind m_appliedTheme = ThemeKind::Dark;
    bool m_imgui = false;
    uint64_t m_frames = 0;
    uint64_t m_settledFrames = 0;        // frames drawn since the checks settled (screenshots)
    uint64_t m_titlePuzzle = UINT64_MAX; // the puzzle generation the window title shows
    FrameStats m_stats;
    Clock::time_point m_lastTyping;
    int m_typingStep = 0;
    bool m_keysPending = false; // keyboard events wait for the next frames
    uint64_t m_lastPicture = 0; // fingerprint of the frame presented last
    Clock::time_point m_lastPresent;
    uint64_t m_lastExposure = 0;
    std::optional<uint32_t> m_pendingRound; // scripted: applied once the trace is there
    std::string m_pendingCell;
    std::string m_layoutFile; // VKPUZZLES_LAYOUT: tests read where the widgets are
};

Status App::start() {
    bool automated = !m_o.screenshot.empty() || m_o.frames > 0;
    ui::WorkbenchOptions wo;
    wo.puzzleRoot = defaultPuzzleRoot();
    wo.packs = m_o.packs;
    wo.dataDir = UserState::defaultDirectory();
    wo.persist = !automated; // scripted runs never touch the learner's drafts or settings
    wo.deviceSelector = !m_o.device.empty() ? m_o.device : deviceSelectorFromEnvironment();
    wo.puzzle = m_o.puzzle;
    wo.kernelFile = m_o.kernel;
    // Learners' kernels run in a worker process (unless --in-process): an endless loop or a lost
    // device costs a restart of the worker, never the window or the text.
    wo.runnerFactory =
        runnerFactory(m_o.inProcess ? RunnerPlaceKind::InProcess : RunnerPlaceKind::Worker);
    // A kernel that uses subgroups is also checked on lavapipe at 4, 8 and 16 lanes (and 32 and
    // 64 emulated), each a worker process (lavapipe reads its width once per process), even with
    // --in-process.
    wo.subgroupSizeFactory = runnerFactory(RunnerPlaceKind::Worker);
    m_wb = std::make_unique<ui::Workbench>(wo);
    if (!m_o.caseFile.empty()) {
        if (auto st = m_wb->openCaseFile(m_o.caseFile); !st) return st;
        m_wb->update(); // on show from the first frame: --case, --dispatch apply to it
    }
    if (auto st = checkDispatchOption(); !st) return st;
    Settings& s = m_wb->settings();
    if (m_o.theme == "light") s.theme = ThemeKind::Light;
    if (m_o.theme == "dark") s.theme = ThemeKind::Dark;
    if (m_o.theme == "high-contrast") s.theme = ThemeKind::HighContrast;
    if (m_o.presenter) s.presenter = true;
    // --font-scale is the text size of the mode the window starts in (presenter mode keeps its
    // own).
    if (m_o.fontScale > 0)
        (s.presenter ? s.presenterFontScale : s.fontScale) = roundScale(m_o.fontScale);
    platform::WindowOptions w;
    w.width = m_o.width > 0 ? m_o.width : automated ? 1280 : s.windowWidth;
    w.height = m_o.height > 0 ? m_o.height : automated ? 800 : s.windowHeight;
    auto window = platform::Window::create(w);
    if (!window) return window.error();
    m_window = std::move(*window);
    m_window->countEvents();
    platform::RendererOptions ro;
    ro.vsync = !m_o.frameStats; // frame times measure the work, not the display's refresh
    auto renderer = platform::Renderer::create(*m_window, ro);
    if (!renderer) return renderer.error();
    m_renderer = std::move(*renderer);
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr; // the layout is ours (settings.json), not imgui.ini
    io.ConfigWindowsMoveFromTitleBarOnly = true;
    ImGui_ImplGlfw_InitForVulkan(m_window->handle(), true);
    // After ImGui's callbacks: keys reach ImGui one frame at a time, with their own modifiers.
    m_window->queueKeyboard(platform::deliverToImGui);
    m_imgui = true;
    applyScale();
    if (auto st = m_renderer->initImGui(); !st) return st;
    m_info.uiDevice = m_renderer->deviceName();
    m_info.version = m_o.version;
    m_info.fontSource = ui::fonts().source;
    if (const char* layout = std::getenv("VKPUZZLES_LAYOUT"); layout && *layout) {
        m_layoutFile = layout;
        ui::layout::enable(true);
    }
    prepareScreenshotState();
    return okStatus();
}

// --dispatch K names a dispatch of the case shown: it must be a multi-pass puzzle's, and exist.
Status App::checkDispatchOption() const {
    const Puzzle* p = m_wb->puzzle();
    if (m_o.dispatch == 0 || !p) return okStatus();
    if (!p->multiPass())
        return Error{ErrorKind::Usage, "--dispatch is for multi-pass puzzles; " + p->slug +
                                           " runs one dispatch per case"};
    size_t c = m_o.caseNumber > 0 ? std::min<size_t>(m_o.caseNumber, p->cases.size()) - 1 : 0;
    auto dispatches = caseDispatches(*p, c);
    if (!dispatches) return dispatches.error();
    if (static_cast<size_t>(m_o.dispatch) > dispatches->size())
        return Error{ErrorKind::Usage,
                     "--dispatch " + std::to_string(m_o.dispatch) + ": case " +
                         std::to_string(c + 1) + " of " + p->slug + " runs " +
                         (dispatches->size() == 1 ? std::string("1 dispatch (--dispatch 1)")
                                                  : std::to_string(dispatches->size()) +
                                                        " dispatches (--dispatch 1 to " +
                                                        std::to_string(dispatches->size()) + ")")};
    return okStatus();
}

void App::prepareScreenshotState() {
    const Puzzle* p = m_wb->puzzle();
    if (m_o.caseNumber > 0 && p)
        m_state.selectedCase = std::min<int>(m_o.caseNumber, static_cast<int>(p->cases.size())) - 1;
    if (m_o.reveal && p) {
        for (size_t i = 0; i < p->hints.size(); ++i)
            m_wb->revealNextHint();
        m_wb->revealSolution();
    }
    if (m_o.tab == "hints")
        m_state.showTab = views::SideTab::Hints;
    else if (m_o.tab == "solution")
        m_state.showTab = views::SideTab::Solution;
    else if (m_o.tab == "device")
        m_state.showTab = views::SideTab::Device;
    else if (m_o.tab == "efficiency")
        m_state.showTab = views::SideTab::Efficiency;
    else if (m_o.tab == "buffers")
        m_state.showMemoryTab = views::MemoryTab::Buffers;
    else if (m_o.tab == "timeline")
        m_state.showMemoryTab = views::MemoryTab::Timeline;
    else if (m_o.tab == "watches")
        m_state.showMemoryTab = views::MemoryTab::Watches;
    else if (m_o.tab == "console")
        m_state.showMemoryTab = views::MemoryTab::Console;
    else if (m_o.tab == "lookback")
        m_state.showMemoryTab = views::MemoryTab::Lookback;
    if (m_o.thread) m_state.selection.thread = *m_o.thread;
    if (m_o.dispatch > 0) m_state.pickedDispatch = static_cast<size_t>(m_o.dispatch - 1);
    std::optional<uint32_t> step = m_o.script.walkthroughStep;
    if (!step && m_o.tab == "walkthrough") step = 1;
    if (step && p) {
        m_wb->revealSolution();
        const Walkthrough* w = m_wb->walkthrough();
        if (!w || w->steps.empty())
            std::cerr << "vkpuzzles: " << p->slug << " has no walkthrough to open at step " << *step
                      << "\n";
        else if (*step > w->steps.size())
            std::cerr << "vkpuzzles: --step " << *step << ": the walkthrough of " << p->slug
                      << " has " << w->steps.size() << " steps; it opens at the last\n";
        m_view.startWalkthrough(*m_wb, m_state, *step - 1);
    }
    const ViewScript& vs = m_o.script;
    if (!vs.watch.empty()) m_wb->setWatchedLines(vs.watch);
    if (vs.workgroup) m_state.timelineWorkgroup = *vs.workgroup;
    if (vs.top) m_wb->settings().layout.topHeight = *vs.top;
    if (vs.line) m_state.jumpTo = std::make_pair(static_cast<int>(*vs.line), 0);
    m_pendingRound = vs.round;
    m_pendingCell = vs.cell;
}

// Scripted view state that needs the trace (a round, a shared cell) waits for it: the trace of
// the final report, not one shown while the checks were still coming in (a round applied to that
// one was lost when the timeline was rebuilt, on a loaded CI machine).
void App::applyPendingScript() {
    const Trace* trace = m_state.traces.trace();
    const Puzzle* p = m_wb->puzzle();
    if (!trace || !p || m_wb->snapshot().status != LiveStatusKind::Done || !m_wb->currentReport())
        return;
    if (m_pendingRound) m_state.seekRound = *m_pendingRound, m_pendingRound.reset();
    if (m_pendingCell.empty()) return;
    std::string name = m_pendingCell.substr(0, m_pendingCell.find('['));
    std::vector<uint32_t> index;
    for (size_t at = m_pendingCell.find('['); at != std::string::npos;
         at = m_pendingCell.find('[', at + 1))
        index.push_back(
            static_cast<uint32_t>(std::strtoul(m_pendingCell.c_str() + at + 1, nullptr, 10)));
    m_pendingCell.clear();
    size_t ci = std::min<size_t>(m_state.selectedCase, p->cases.size() - 1);
    if (auto b = p->bufferIndex(name); b && p->cases[ci].data[*b]) {
        const Shape& shape = p->cases[ci].data[*b]->shape;
        uint64_t flat = index.size() == 2 ? uint64_t(index[0]) * shape.cols() + index[1]
                        : index.empty()   ? 0
                                          : index[0];
        m_state.selection.cell = ui::CellRef::buffer(static_cast<uint32_t>(*b), flat);
        return;
    }
    for (size_t v = 0; v < trace->variables.size(); ++v) {
        const TraceVariableInfo& info = trace->variables[v];
        if (!info.decl.shared || info.decl.name != name) continue;
        uint64_t flat = index.size() == 2 && info.dims.size() == 2
                            ? uint64_t(index[0]) * info.dims[1] + index[1]
                        : index.empty() ? 0
                                        : index[0];
        m_state.selection.cell =
            ui::CellRef::sharedCell(static_cast<uint32_t>(v), m_state.timelineWorkgroup, flat);
    }
}

// A view asked to be saved: a couple of frames later (its menu closed), the frame is captured.
bool App::exportDue() {
    if (!m_state.exportRequest) return false;
    return --m_state.exportRequest->framesLeft <= 0;
}

void App::writeExport(const std::string& view) {
    auto rect = m_state.viewRects.find(ui::panelOfView(view));
    const Puzzle* p = m_wb->puzzle();
    if (rect == m_state.viewRects.end() || !p) return;
    ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    const auto& r = rect->second;
    platform::Image cropped =
        platform::cropImage(m_renderer->captured(), int(r[0] * scale.x), int(r[1] * scale.y),
                            int(r[2] * scale.x), int(r[3] * scale.y));
    std::string dir = ui::exportDirectory(m_wb->dataDir());
    std::error_code ec;
    std::filesystem::create_directories(os::toPath(dir), ec);
    std::string path =
        os::pathText(os::toPath(dir) / os::toPath(ui::exportFileName(p->slug, view)));
    auto written = platform::writePng(path, cropped);
    std::string message =
        written ? "Saved the " + view + " view as " + path
                : "The " + view + " view could not be saved: " + written.error().message;
    std::cout << message << "\n";
    if (m_o.screenshot.empty() && m_o.frames == 0) m_wb->messages().push_back(message);
}

// Fonts are rasterised at the final pixel size (text size x the monitor's content scale), and the
// style's paddings scale with them, so presentation mode stays crisp.
void App::applyScale() {
    float scale = m_wb->settings().activeFontScale() * m_window->contentScale();
    ThemeKind theme = m_wb->settings().theme;
    if (std::fabs(scale - m_appliedScale) < 1e-3f && theme == m_appliedTheme) return;
    bool fontsChanged = std::fabs(scale - m_appliedScale) >= 1e-3f;
    ui::applyTheme(theme, scale);
    m_appliedTheme = theme;
    if (!fontsChanged) return;
    ui::buildFonts(scale);
    if (m_appliedScale > 0) {
        if (auto s = m_renderer->reloadFonts(); !s)
            std::cerr << "vkpuzzles: " << s.error().message << "\n";
    }
    m_appliedScale = scale;
    m_info.fontSource = ui::fonts().source;
}

void App::handleRequests() {
    Settings& s = m_wb->settings();
    bool changed = false;
    if (m_state.quit) m_window->requestClose();
    if (m_state.toggleFullscreen) m_window->setFullscreen(!m_window->fullscreen());
    m_state.toggleFullscreen = false;
    float& scale = s.presenter ? s.presenterFontScale : s.fontScale; // presenter mode: its own
    if (m_state.fontBigger) scale = roundScale(scale + 0.1f), changed = true;
    if (m_state.fontSmaller) scale = roundScale(scale - 0.1f), changed = true;
    if (m_state.fontReset) scale = s.presenter ? 2.0f : 1.0f, changed = true;
    if (m_state.toggleTheme)
        s.theme = s.theme == ThemeKind::Dark ? ThemeKind::Light : ThemeKind::Dark, changed = true;
    if (m_state.toggleHighContrast)
        s.theme = s.theme == ThemeKind::HighContrast ? ThemeKind::Dark : ThemeKind::HighContrast,
        changed = true;
    m_state.fontBigger = m_state.fontSmaller = m_state.fontReset = m_state.toggleTheme = false;
    m_state.toggleHighContrast = false;
    if (!changed) return;
    applyScale();
    m_wb->saveSettings();
}

// Test-only (VKPUZZLES_LAYOUT=FILE): where the named widgets of this frame are, replaced
// atomically so a test polling the file never reads half of it.
void App::writeLayout() {
    if (m_layoutFile.empty()) return;
    std::string tmp = m_layoutFile + ".tmp";
    {
        std::ofstream out(os::toPath(tmp), std::ios::trunc);
        out << ui::layout::json(m_frames);
        if (!out) return;
    }
    std::error_code ec;
    std::filesystem::rename(os::toPath(tmp), os::toPath(m_layoutFile), ec);
}

void App::updateTitle() {
    // The generation changes with every puzzle opened and every reload (a new title on disk).
    if (m_titlePuzzle == m_wb->puzzleGeneration()) return;
    m_titlePuzzle = m_wb->puzzleGeneration();
    const Puzzle* p = m_wb->puzzle();
    std::string shown = p ? p->displayName() : "";
    if (const OpenedCaseFile* f = m_wb->caseFile())
        shown = os::pathText(os::toPath(f->path).filename()) + " (case file, read-only)";
    m_window->setTitle(shown.empty() ? "vkpuzzles" : shown + " \xE2\x80\x94 vkpuzzles");
}

Status App::frame(bool capture) {
    auto t0 = Clock::now();
    m_keysPending = m_window->deliverKeyboard();
    m_renderer->newImGuiFrame();
    ImGui_ImplGlfw_NewFrame();
    if (m_o.hover) ImGui::GetIO().MousePos = ImVec2(m_o.hover->first, m_o.hover->second);
    ImGui::NewFrame();
    for (const std::string& path : m_window->takeDroppedPaths()) // a case file or a kernel
        m_view.dropFile(*m_wb, path);
    m_wb->update();
    m_info.fontScale = m_wb->settings().activeFontScale();
    m_info.fullscreen = m_window->fullscreen();
    ui::layout::beginFrame();
    m_view.draw(*m_wb, m_state, m_info);
    writeLayout();
    applyPendingScript();
    std::optional<std::string> exportView;
    if (exportDue()) {
        exportView = m_state.exportRequest->view;
        m_state.exportRequest.reset();
        capture = true;
    }
    ImGui::Render();
    auto t1 = Clock::now();
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    const float clear[4] = {bg.x, bg.y, bg.z, 1.0f};
    // A frame that would draw exactly the last picture is not drawn again: on a software device
    // that leaves the CPU to the checks. (--frame-stats draws every frame: it measures drawing.)
    uint64_t print = fingerprint(ImGui::GetDrawData());
    bool exposed = m_window->exposureCount() != m_lastExposure;
    m_lastExposure = m_window->exposureCount();
    bool same = print == m_lastPicture && !capture && !exposed && !m_o.frameStats &&
                Clock::now() - m_lastPresent < std::chrono::seconds(1);
    Status s = okStatus();
    if (!same) {
        s = m_renderer->render(ImGui::GetDrawData(), clear, capture);
        m_lastPicture = print;
        m_lastPresent = Clock::now();
    }
    m_stats.add(t0, t1, Clock::now());
    if (exportView && s) writeExport(*exportView);
    handleRequests();
    // Presenter mode (F5) and the View menu's themes change the settings during the frame.
    if (std::fabs(m_window->contentScale() * m_wb->settings().activeFontScale() - m_appliedScale) >
            1e-3f ||
        m_wb->settings().theme != m_appliedTheme)
        applyScale();
    updateTitle();
    ++m_frames;
    return s;
}

bool App::screenshotDue() {
    const LiveSnapshot& s = m_wb->snapshot();
    bool settled = (s.status == LiveStatusKind::Done && m_wb->currentReport() && !s.besideDue()) ||
                   s.status == LiveStatusKind::DeviceError || s.status == LiveStatusKind::Held;
    // A walkthrough also waits for the official solution's run.
    if (m_state.walkthroughActive && s.status != LiveStatusKind::DeviceError &&
        !m_wb->officialReport(m_state.walkthroughCase))
        settled = false;
    m_settledFrames = settled ? m_settledFrames + 1 : 0;
    // Frames after the results arrive: layouts that size themselves from what they drew settle
    // (a presenter walkthrough fits its step text in up to eight stages, two frames each).
    return m_settledFrames >= 24 && m_frames >= 26;
}

// Frame-time runs keep the live loop busy: an edit every 0.4 s (past the typing pause), so the
// kernel is compiled, run and checked again and again while frames are measured.
void App::simulateTyping() {
    auto now = Clock::now();
    if (now - m_lastTyping < std::chrono::milliseconds(400)) return;
    m_lastTyping = now;
    text::TextDocument& doc = m_wb->document();
    doc.moveToEnd(false);
    if (m_typingStep++ % 2 == 0)
        doc.insert("\n// measuring");
    else
        doc.undo();
}

int App::run() {
    // A case file that cannot be opened is said at once, display or not.
    if (!m_o.caseFile.empty())
        if (auto opened = readCaseFile(m_o.caseFile); !opened) {
            std::cerr << "vkpuzzles: " << opened.error().str() << "\n";
            return 2;
        }
    if (!platform::displayAvailable()) {
        std::cerr << "vkpuzzles: there is no display to open the app on (DISPLAY and "
                     "WAYLAND_DISPLAY are unset); "
                     "the command line works without one: vkpuzzles --help\n";
        return 2;
    }
    bool automated = !m_o.screenshot.empty() || m_o.frames > 0;
    if (!automated) os::releaseOwnConsole();
    if (auto s = start(); !s) {
        if (!automated) os::tellUser("vkpuzzles cannot start: " + s.error().message);
        if (s.error().kind == ErrorKind::Usage)
            std::cerr << "vkpuzzles: " << s.error().message << " (see vkpuzzles --help)\n";
        else if (s.error().kind == ErrorKind::NotFound)
            std::cerr << "vkpuzzles: " << s.error().message
                      << "\n"; // the command line needs it too
        else
            std::cerr << "vkpuzzles: " << s.error().message
                      << "; the command line works without a window: vkpuzzles --help\n";
        return shutdown(2);
    }
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    auto started = Clock::now();
    uint64_t seenEvents = m_window->eventCount();
    int eager = 10;
    int status = 0;
    while (!m_window->shouldClose() && !g_quit) {
        bool settling = std::exchange(m_state.layoutSettling, false);
        bool interacting =
            automated || eager > 0 || settling || m_keysPending || ImGui::IsAnyMouseDown();
        // Input is answered at once; a check under way only animates the spinner (30 frames a
        // second leave the CPU to the check on a software device); idle wakes for the cursor.
        platform::Window::waitEvents(interacting ? 0 : m_wb->snapshot().busy() ? 1.0 / 30 : 0.25);
        if (m_window->eventCount() != seenEvents) eager = 10;
        seenEvents = m_window->eventCount();
        if (eager > 0) --eager;
        if (m_o.frameStats && m_o.script.edits) simulateTyping();
        bool capture = !m_o.screenshot.empty() && screenshotDue();
        if (auto s = frame(capture); !s) {
            std::cerr << "vkpuzzles: " << s.error().message << "\n";
            status = 1;
            break;
        }
        if (capture) {
            if (!m_o.script.exportView.empty()) writeExport(m_o.script.exportView);
            auto written = platform::writePng(m_o.screenshot, m_renderer->captured());
            if (!written)
                std::cerr << "vkpuzzles: " << written.error().message << "\n";
            else
                std::cout << "saved " << m_o.screenshot << " (" << m_renderer->captured().width
                          << "x" << m_renderer->captured().height
                          << "): " << statusLine(m_wb->snapshot()) << "\n";
            status = written ? 0 : 1;
            break;
        }
        if (!m_o.screenshot.empty() && Clock::now() - started > kScreenshotTimeout) {
            std::cerr << "vkpuzzles: the checks did not finish within "
                      << kScreenshotTimeout.count() << " s; no screenshot was taken\n";
            status = 1;
            break;
        }
        if (m_o.frames > 0 && m_frames >= static_cast<uint64_t>(m_o.frames)) break;
    }
    if (m_o.frameStats)
        m_stats.print(std::cout, m_renderer->presentModeName(), m_info.uiDevice,
                      m_wb->snapshot().device ? m_wb->snapshot().device->name : "none",
                      m_wb->snapshot().checksRun);
    return shutdown(status);
}

int App::shutdown(int status) {
    if (m_wb && m_window && m_wb->persistent()) {
        int w = 0, h = 0;
        m_window->windowedSize(w, h); // not the monitor's size after F11
        if (w > 0 && h > 0) m_wb->settings().windowWidth = w, m_wb->settings().windowHeight = h;
    }
    bool abandoned = m_wb && m_wb->session().abandonedDevice();
    m_wb.reset(); // saves the draft, progress and settings; stops the live loop
    if (abandoned) {
        // A kernel that never finished still occupies a (leaked) device; the driver could wait for
        // it at exit. Everything is saved: leave at once.
        std::fflush(nullptr);
        _exit(status);
    }
    m_renderer.reset(); // also shuts the ImGui Vulkan backend down
    if (m_imgui) {
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    m_window.reset();
    return status;
}

} // namespace

int runApp(const AppOptions& options) {
    return App(options).run();
}

} // namespace vkp::app
