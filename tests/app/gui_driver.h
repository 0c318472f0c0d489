// Driving the app like a person: its own Xvfb (a free display number from -displayfd, stopped by
// its pid), the app started on it with the layout probe on (VKPUZZLES_LAYOUT, see
// widgets/layout_probe.h), and real X events from xdotool at the places the probe names. Waits poll
// the probe's file with generous timeouts, never a fixed small delay.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp::test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

struct Rect {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    int cx() const { return (x0 + x1) / 2; }
    int cy() const { return (y0 + y1) / 2; }
    bool contains(int x, int y) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
};

// One frame of the layout probe: named rectangles and facts.
struct Layout {
    uint64_t frame = 0;
    std::map<std::string, std::string> facts;
    std::map<std::string, Rect> rects;

    std::string fact(const std::string& key) const {
        auto it = facts.find(key);
        return it == facts.end() ? "" : it->second;
    }
    std::optional<Rect> rect(const std::string& name) const {
        auto it = rects.find(name);
        if (it == rects.end()) return std::nullopt;
        return it->second;
    }
    std::vector<std::string> named(const std::string& prefix) const {
        std::vector<std::string> out;
        for (const auto& [k, r] : rects)
            if (k.rfind(prefix, 0) == 0) out.push_back(k);
        return out;
    }
};

inline std::string readFile(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

class GuiDriver {
  public:
    explicit GuiDriver(fs::path dir) : m_dir(std::move(dir)) { fs::create_directories(m_dir); }
    ~GuiDriver() { stop(); }

    // Starts Xvfb on a display it picks itself (-displayfd), so parallel tests never collide.
    // Xvfb can report a display number and still lose it (seen once in a while with several
    // tests starting servers at the same moment: the app then "failed to open display"), so
    // the server must still run and take a connection on its socket; else it is started again.
    ::testing::AssertionResult startX(const std::string& screen = "1600x1000x24") {
        std::string why;
        for (int attempt = 0; attempt < 3; ++attempt) {
            why = startXOnce(screen);
            if (why.empty() && displayAnswers()) return ::testing::AssertionSuccess();
            if (why.empty()) why = "Xvfb said display " + m_display + " but does not answer there";
            stopX();
        }
        return ::testing::AssertionFailure() << why << "\n" << readFile(m_dir / "xvfb.log");
    }

    // Starts the app (`binary` with `args`) on the display, with its own data folder and the
    // layout probe on. Its stdout and stderr go to app.log.
    void startApp(const std::string& binary, const std::vector<std::string>& args,
                  const std::vector<std::string>& env = {}) {
        m_log = m_dir / "app.log";
        m_app = fork();
        if (m_app == 0) {
            setenv("DISPLAY", m_display.c_str(), 1);
            setenv("XDG_DATA_HOME", (m_dir / "data").c_str(), 1);
            setenv("HOME", (m_dir / "home").c_str(), 1);
            setenv("VKPUZZLES_LAYOUT", layoutFile().c_str(), 1);
            setenv("VKPUZZLES_EXPORT_DIR", (m_dir / "exports").c_str(), 1);
            for (const std::string& e : env)
                putenv(const_cast<char*>(e.c_str()));
            int log = open(m_log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(log, 1), dup2(log, 2);
            std::vector<char*> argv{const_cast<char*>(binary.c_str())};
            for (const std::string& a : args)
                argv.push_back(const_cast<char*>(a.c_str()));
            argv.push_back(nullptr);
            execv(binary.c_str(), argv.data());
            _exit(127);
        }
    }

    bool alive() {
        if (m_app <= 0) return false;
        int status = 0;
        pid_t r = waitpid(m_app, &status, WNOHANG);
        if (r == 0) return true;
        m_exit = status;
        m_app = -1;
        return false;
    }
    // How the app ended ("exit 0", "signal 11"), once it has.
    std::string howItEnded() const {
        if (!m_exit) return "running";
        if (WIFSIGNALED(*m_exit)) return "killed by signal " + std::to_string(WTERMSIG(*m_exit));
        return "exit " + std::to_string(WEXITSTATUS(*m_exit));
    }
    // Waits for the app to exit by itself (Ctrl+Q): true if it did within `timeout`.
    bool waitExit(std::chrono::seconds timeout) {
        auto until = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < until) {
            if (!alive()) return true;
            std::this_thread::sleep_for(100ms);
        }
        return false;
    }
    int exitCode() const { return m_exit && WIFEXITED(*m_exit) ? WEXITSTATUS(*m_exit) : -1; }

    std::string log() const { return readFile(m_log); }
    fs::path dir() const { return m_dir; }
    fs::path dataDir() const { return m_dir / "data" / "vkpuzzles"; }
    fs::path exportDir() const { return m_dir / "exports"; }
    std::string layoutFile() const { return (m_dir / "layout.json").string(); }
    const std::string& display() const { return m_display; }

    // The latest frame the app described (empty before the first).
    Layout layout() const {
        Layout l;
        std::string text = readFile(layoutFile());
        auto j = nlohmann::json::parse(text, nullptr, false);
        if (j.is_discarded() || !j.is_object()) return l;
        l.frame = j.value("frame", uint64_t(0));
        for (auto& [k, v] : j["facts"].items())
            l.facts[k] = v.get<std::string>();
        for (auto& [k, v] : j["rects"].items())
            l.rects[k] = Rect{v[0].get<int>(), v[1].get<int>(), v[2].get<int>(), v[3].get<int>()};
        return l;
    }

    // Polls the layout until `ok` holds (or the app dies, or `timeout` passes).
    ::testing::AssertionResult waitFor(const std::string& what,
                                       const std::function<bool(const Layout&)>& ok,
                                       std::chrono::seconds timeout = 60s) {
        auto until = std::chrono::steady_clock::now() + timeout;
        Layout l;
        while (std::chrono::steady_clock::now() < until) {
            if (!alive())
                return ::testing::AssertionFailure()
                       << "the app died (" << howItEnded() << ") waiting for " << what << "\n"
                       << tail();
            l = layout();
            if (l.frame > 0 && ok(l)) return ::testing::AssertionSuccess();
            std::this_thread::sleep_for(50ms);
        }
        return ::testing::AssertionFailure()
               << "timed out after " << timeout.count() << " s waiting for " << what
               << "; facts: " << factsText(l);
    }
    ::testing::AssertionResult waitFact(const std::string& key, const std::string& value,
                                        std::chrono::seconds timeout = 60s) {
        return waitFor(
            key + " = " + value, [&](const Layout& l) { return l.fact(key) == value; }, timeout);
    }
    // Waits for a few frames to be drawn after an input (so the next layout read reflects it).
    ::testing::AssertionResult settleFrames(uint64_t frames = 2) {
        uint64_t from = layout().frame;
        return waitFor("frame " + std::to_string(from + frames),
                       [&](const Layout& l) { return l.frame >= from + frames; });
    }

    // The window the app opened, found once. The display is this test's own, so the app's is the
    // only window whose title names vkpuzzles.
    std::string window() {
        if (!m_window.empty()) return m_window;
        auto until = std::chrono::steady_clock::now() + test::kPatience;
        while (m_window.empty() && std::chrono::steady_clock::now() < until && alive()) {
            CliRun r = xdo("search --name vkpuzzles");
            std::istringstream s(r.out);
            s >> m_window;
            if (m_window.empty()) std::this_thread::sleep_for(100ms);
        }
        return m_window;
    }
    std::string windowName() { return trimmed(xdo("getwindowname " + window()).out); }
    // Waits for the window title (set at the end of the frame that opened a puzzle).
    ::testing::AssertionResult waitTitle(const std::string& title,
                                         std::chrono::seconds timeout = 60s) {
        auto until = std::chrono::steady_clock::now() + timeout;
        std::string now;
        while (std::chrono::steady_clock::now() < until) {
            if ((now = windowName()) == title) return ::testing::AssertionSuccess();
            if (!alive()) break;
            std::this_thread::sleep_for(50ms);
        }
        return ::testing::AssertionFailure() << "the window title is '" << now << "', not '"
                                             << title << "' (" << howItEnded() << ")";
    }

    CliRun xdo(const std::string& args) const {
        return runCommand("DISPLAY=" + m_display + " xdotool " + args + " 2>&1");
    }

    // A left click (or `button`) at a point of the window, as a hand makes it: the pointer gets
    // there, a frame is drawn, then the button goes down. (ImGui's tabs ignore a press in the very
    // frame the pointer jumped onto them from another widget.)
    void clickAt(int x, int y, int button = 1) {
        moveTo(x, y);
        settleFrames(2);
        xdo("click " + std::to_string(button));
    }
    void moveTo(int x, int y) {
        xdo("mousemove --window " + window() + " " + std::to_string(x) + " " + std::to_string(y));
    }
    // Key presses as a hand makes them: "ctrl+z Up" holds Ctrl, and presses Z only once the app
    // has seen Ctrl held (its "modifiers" fact), then lets go. (xdotool's own chords send all four
    // events within a millisecond; on Debian 13 the app used to lose such chords, now tested on
    // their own in gui_keys_test.cpp. The tests of other things press keys the slower way.)
    void key(const std::string& keys) {
        std::istringstream in(keys);
        std::string combo;
        while (in >> combo) {
            std::vector<std::string> parts;
            for (size_t at = 0;;) {
                size_t plus = combo.find('+', at);
                parts.push_back(
                    combo.substr(at, plus == std::string::npos ? std::string::npos : plus - at));
                if (plus == std::string::npos) break;
                at = plus + 1;
            }
            std::string last = parts.back();
            parts.pop_back();
            if (parts.empty()) {
                xdo("key " + last);
                continue;
            }
            std::string down, up, held;
            for (const std::string& m : parts)
                down += (down.empty() ? "" : " sleep 0.02 ") + std::string("keydown ") + m;
            for (auto m = parts.rbegin(); m != parts.rend(); ++m)
                up += " sleep 0.02 keyup " + *m;
            for (const char* name : {"ctrl", "shift", "alt"}) // the order the fact names them in
                if (std::find(parts.begin(), parts.end(), name) != parts.end())
                    held += (held.empty() ? "" : "+") + std::string(name);
            xdo(down);
            auto seen = waitFact("modifiers", held, 30s);
            if (!seen && alive())
                ADD_FAILURE() << "the app never saw " << held << " held: " << seen.message();
            xdo("key " + last + up);
        }
    }
    void type(const std::string& text) { xdo("type --delay 25 '" + text + "'"); }

    // Clicks the middle of a named widget once it is on screen.
    ::testing::AssertionResult click(const std::string& name, int button = 1) {
        auto seen =
            waitFor(name + " on screen", [&](const Layout& l) { return l.rect(name).has_value(); });
        if (!seen) return seen;
        // The widget can move while the pointer travels to it: the frame that took an earlier
        // click already says what it selected, but the panel that selection opens (the thread
        // inspector under the grid) is laid out only in the next frame. The pointer follows the
        // widget until two frames drawn after it arrived have it in the same place.
        Rect r = *layout().rect(name);
        for (int moves = 0;; ++moves) {
            moveTo(r.cx(), r.cy());
            settleFrames(2);
            std::optional<Rect> now = layout().rect(name);
            if (!now)
                return ::testing::AssertionFailure()
                       << name << " left the screen as the pointer went to it";
            if (now->cx() == r.cx() && now->cy() == r.cy()) break;
            if (moves == 20)
                return ::testing::AssertionFailure() << name << " kept moving: 20 moves";
            r = *now;
        }
        xdo("click " + std::to_string(button));
        return ::testing::AssertionSuccess();
    }

    // What the app's last frame said (its facts: status, verdicts, tabs), for failure messages.
    std::string lastFacts() const { return factsText(layout()); }

    // The last lines of the app's output, for failure messages.
    std::string tail(size_t lines = 40) const {
        std::string text = log();
        size_t at = text.size();
        for (size_t n = 0; n <= lines && at != std::string::npos && at > 0; ++n)
            at = text.rfind('\n', at - 1);
        return at == std::string::npos ? text : text.substr(at);
    }

    void stop() {
        if (m_app > 0 && alive()) {
            kill(m_app, SIGTERM); // the app saves and quits on SIGTERM
            if (!waitExit(30s)) kill(m_app, SIGKILL), waitpid(m_app, nullptr, 0);
        }
        m_app = -1;
        if (m_xvfb > 0) {
            kill(m_xvfb, SIGTERM);
            waitpid(m_xvfb, nullptr, 0);
            m_xvfb = -1;
        }
    }

  private:
    static std::string trimmed(std::string s) {
        while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
            s.pop_back();
        return s;
    }
    static std::string factsText(const Layout& l) {
        std::string s;
        for (const auto& [k, v] : l.facts)
            s += k + "=" + v + " ";
        return s;
    }

    fs::path m_dir, m_log;
    std::string m_display, m_window;
    // One Xvfb on a free display (its number from -displayfd); "" or why not.
    std::string startXOnce(const std::string& screen) {
        int fds[2];
        if (pipe(fds) != 0) return "pipe failed";
        m_xvfb = fork();
        if (m_xvfb == 0) {
            close(fds[0]);
            int log = open((m_dir / "xvfb.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(log, 1), dup2(log, 2);
            std::string fd = std::to_string(fds[1]);
            // -noreset: an X server resets when its last client leaves, and the test's own
            // clients (each xdotool call, while it waits for the app's window) come and go before
            // the app has connected; a reset at that moment dropped the app's connection ("Failed
            // to detect any supported platform", seen on Debian 13's CI).
            execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", screen.c_str(),
                   "-nolisten", "tcp", "-noreset", (char*)nullptr);
            _exit(127);
        }
        close(fds[1]);
        std::string number;
        char c;
        while (read(fds[0], &c, 1) == 1 && c != '\n')
            number += c;
        close(fds[0]);
        if (number.empty()) return "Xvfb gave no display number (is the xvfb package installed?)";
        m_display = ":" + number;
        return "";
    }
    // The server is still running and its socket takes a connection.
    bool displayAnswers() const {
        if (m_xvfb <= 0 || waitpid(m_xvfb, nullptr, WNOHANG) != 0) return false;
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::string path = "/tmp/.X11-unix/X" + m_display.substr(1);
        if (path.size() >= sizeof(address.sun_path)) return false;
        std::copy(path.begin(), path.end(), address.sun_path);
        int fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd < 0) return false;
        bool ok = connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
        close(fd);
        return ok;
    }
    void stopX() {
        if (m_xvfb > 0) {
            kill(m_xvfb, SIGTERM);
            waitpid(m_xvfb, nullptr, 0);
            m_xvfb = -1;
        }
    }

    pid_t m_xvfb = -1, m_app = -1;
    std::optional<int> m_exit;
};

// The fixture of the GUI tests: an X server of its own per test (in a folder named after the
// suite, the process and the test), torn down after it; on a failure the app's last lines are
// printed. `start` opens the app at the size the tests' coordinates assume.
class GuiTest : public ::testing::Test {
  protected:
    explicit GuiTest(std::string prefix) : m_prefix(std::move(prefix)) {}

    void SetUp() override {
        ASSERT_EQ(runCommand("command -v xdotool >/dev/null && command -v Xvfb >/dev/null").exit, 0)
            << "xdotool and Xvfb are needed: install the xdotool and xvfb packages (./build.sh "
               "does)";
        std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        m_gui = std::make_unique<GuiDriver>(
            fs::temp_directory_path() /
            ("vkp-" + m_prefix + "-" + std::to_string(getpid()) + "-" + name));
        ASSERT_TRUE(m_gui->startX());
    }
    void TearDown() override {
        if (HasFailure()) std::cerr << "app output:\n" << m_gui->tail(60) << "\n";
        fs::path dir = m_gui->dir();
        m_gui.reset();
        fs::remove_all(dir);
    }
    void start(std::vector<std::string> args) {
        if (std::find(args.begin(), args.end(), "--size") == args.end())
            args.insert(args.end(), {"--size", "1280x800"});
        m_gui->startApp(binaryPath(), args);
        ASSERT_FALSE(m_gui->window().empty())
            << "no window appeared (the app: " << m_gui->howItEnded() << ")\n"
            << m_gui->tail();
    }

    // With VKPUZZLES_TEST_SHOTS=DIR, the screen as an X window dump, DIR/NAME.xwd, for people to
    // look at; nothing is checked. (The root window: a modal form or a menu shows too.)
    void shoot(const std::string& name) {
        const char* dir = std::getenv("VKPUZZLES_TEST_SHOTS");
        if (!dir) return;
        m_gui->settleFrames(3);
        runCommand("xwd -root -display " + m_gui->display() + " -out " + std::string(dir) + "/" +
                   name + ".xwd");
    }

    std::string m_prefix;
    std::unique_ptr<GuiDriver> m_gui;
};

} // namespace vkp::test
