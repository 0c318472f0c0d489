#include "app/app_args.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#ifndef VKPUZZLES_VERSION
#define VKPUZZLES_VERSION "0"
#endif

namespace vkp::app {
namespace {

Error usage(const std::string& message) {
    return Error{ErrorKind::Usage, message + " (see vkpuzzles --help)"};
}

bool parseInt(const std::string& s, long lo, long hi, int& out) {
    char* end = nullptr;
    long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end || v < lo || v > hi) return false;
    out = static_cast<int>(v);
    return true;
}

} // namespace

bool wantsApp(const Args& args) {
    if (args.has("help") || args.has("version")) return false;
    // `open FILE` shows a case file in the app; with --print or --json it prints it instead.
    if (args.command == "open") return !args.has("print") && !args.has("json");
    return args.command.empty();
}

Result<AppOptions> appOptionsFrom(const Args& a) {
    AppOptions o;
    o.version = VKPUZZLES_VERSION;
    if (a.command == "open") {
        if (a.positionals.empty())
            return usage("open needs a case file: vkpuzzles open FILE.vkpcase");
        if (a.positionals.size() > 1) return usage("unexpected '" + a.positionals[1] + "'");
        o.caseFile = a.positionals[0];
    } else if (!a.positionals.empty()) {
        return usage("unexpected '" + a.positionals[0] + "'");
    }
    o.packs = a.all("puzzles");
    o.puzzle = a.value("puzzle").value_or("");
    o.kernel = a.value("kernel").value_or("");
    o.device = a.value("device").value_or("");
    o.screenshot = a.value("screenshot").value_or("");
    o.frameStats = a.has("frame-stats");
    o.reveal = a.has("reveal");
    o.presenter = a.has("presenter");
    o.inProcess = a.has("in-process");
    if (auto v = a.value("frames"); v && !parseInt(*v, 1, 1000000, o.frames))
        return usage("--frames needs a whole number of frames, not '" + *v + "'");
    if (o.frameStats && o.frames == 0) o.frames = 330;
    if (auto v = a.value("size")) {
        int w = 0, h = 0;
        size_t x = v->find('x');
        if (x == std::string::npos || !parseInt(v->substr(0, x), 640, 16384, w) ||
            !parseInt(v->substr(x + 1), 400, 16384, h))
            return usage("--size needs WIDTHxHEIGHT, at least 640x400, not '" + *v + "'");
        o.width = w, o.height = h;
    }
    if (auto v = a.value("theme")) {
        if (*v != "dark" && *v != "light" && *v != "high-contrast")
            return usage("--theme is dark, light or high-contrast, not '" + *v + "'");
        o.theme = *v;
    }
    if (auto v = a.value("font-scale")) {
        char* end = nullptr;
        o.fontScale = std::strtof(v->c_str(), &end);
        if (v->empty() || *end || o.fontScale < 0.6f || o.fontScale > 3.0f)
            return usage("--font-scale needs a number from 0.6 to 3, not '" + *v + "'");
    }
    if (auto v = a.value("tab")) {
        static const char* kTabs[] = {"statement",  "hints",    "solution",   "device",
                                      "efficiency", "buffers",  "timeline",   "watches",
                                      "console",    "lookback", "walkthrough"};
        if (std::find(std::begin(kTabs), std::end(kTabs), *v) == std::end(kTabs))
            return usage("--tab is statement, hints, solution, device, efficiency, buffers, "
                         "timeline, watches, "
                         "console, lookback or walkthrough, not '" +
                         *v + "'");
        o.tab = *v;
    }
    if (auto v = a.value("thread")) {
        unsigned x = 0, y = 0, z = 0;
        char tail = 0;
        int n = std::sscanf(v->c_str(), "%u,%u,%u%c", &x, &y, &z, &tail);
        if (n < 1 || n > 3 || v->find_first_not_of("0123456789,") != std::string::npos)
            return usage("--thread needs X[,Y[,Z]] (a global invocation id), not '" + *v + "'");
        o.thread = std::array<uint32_t, 3>{x, n >= 2 ? y : 0, n >= 3 ? z : 0};
    }
    if (const char* env = std::getenv("VKPUZZLES_VIEW"); env && *env) {
        auto script = parseViewScript(env);
        if (!script) return script.error();
        o.script = *script;
    }
    if (auto v = a.value("step")) { // after VKPUZZLES_VIEW: the command line wins
        int step = 0;
        if (!parseInt(*v, 1, 1000000, step))
            return usage("--step needs the number of a walkthrough step (1 = the first), not '" +
                         *v + "'");
        o.script.walkthroughStep = static_cast<uint32_t>(step);
    }
    if (auto v = a.value("case"); v && !parseInt(*v, 1, 1000000, o.caseNumber))
        return usage("--case needs a case number, not '" + *v + "'");
    if (auto v = a.value("dispatch"); v && !parseInt(*v, 1, 1000000, o.dispatch))
        return usage("--dispatch needs the number of a dispatch of a multi-pass case (1 = the "
                     "first), not '" +
                     *v + "'");
    if (auto v = a.value("hover")) {
        float x = 0, y = 0;
        char tail = 0;
        if (std::sscanf(v->c_str(), "%f,%f%c", &x, &y, &tail) != 2)
            return usage("--hover needs X,Y in pixels, not '" + *v + "'");
        o.hover = std::make_pair(x, y);
    }
    return o;
}

Result<ViewScript> parseViewScript(const std::string& text) {
    ViewScript s;
    auto bad = [](const std::string& part) {
        return usage("VKPUZZLES_VIEW: cannot read '" + part + "'");
    };
    auto number = [](const std::string& t, uint32_t& out) {
        int v = 0;
        if (!parseInt(t, 0, 1 << 24, v)) return false;
        out = static_cast<uint32_t>(v);
        return true;
    };
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find(';', start);
        std::string part =
            text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        start = end == std::string::npos ? text.size() : end + 1;
        if (part.empty()) continue;
        size_t eq = part.find('=');
        if (eq == std::string::npos) return bad(part);
        std::string key = part.substr(0, eq), value = part.substr(eq + 1);
        uint32_t n = 0;
        if (key == "watch") {
            size_t p = 0;
            while (p <= value.size()) {
                size_t comma = value.find(',', p);
                if (!number(
                        value.substr(p, comma == std::string::npos ? std::string::npos : comma - p),
                        n) ||
                    n == 0)
                    return bad(part);
                s.watch.push_back(n);
                if (comma == std::string::npos) break;
                p = comma + 1;
            }
        } else if (key == "round" && number(value, n)) {
            s.round = n;
        } else if (key == "line" && number(value, n) && n > 0) {
            s.line = n;
        } else if (key == "workgroup" && number(value, n)) {
            s.workgroup = n;
        } else if (key == "walkthrough" && number(value, n) && n > 0) {
            s.walkthroughStep = n;
        } else if (key == "cell" && value.find('[') != std::string::npos) {
            s.cell = value;
        } else if (key == "top" && std::strtof(value.c_str(), nullptr) >= 0.2f &&
                   std::strtof(value.c_str(), nullptr) <= 0.8f) {
            s.top = std::strtof(value.c_str(), nullptr);
        } else if (key == "edits" && (value == "0" || value == "1")) {
            s.edits = value == "1";
        } else if (key == "export" &&
                   (value == "buffers" || value == "timeline" || value == "watches" ||
                    value == "lookback" || value == "grid" || value == "window")) {
            s.exportView = value;
        } else {
            return bad(part);
        }
    }
    return s;
}

int runAppFromArgs(const Args& args, std::ostream& err) {
    auto options = appOptionsFrom(args);
    if (!options) {
        err << "vkpuzzles: " << options.error().message << "\n";
        return 2;
    }
    return runApp(*options);
}

} // namespace vkp::app
