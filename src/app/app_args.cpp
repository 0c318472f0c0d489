#include "app/app_args.h"

#include <cstdio>
#include <cstdlib>

#ifndef VKPUZZLES_VERSION
#define VKPUZZLES_VERSION "0"
#endif

namespace vkp::app {
namespace {

Error usage(const std::string& message) { return Error{ErrorKind::Usage, message + " (see vkpuzzles --help)"}; }

bool parseInt(const std::string& s, long lo, long hi, int& out) {
    char* end = nullptr;
    long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end || v < lo || v > hi) return false;
    out = static_cast<int>(v);
    return true;
}

} // namespace

bool wantsApp(const cli::Args& args) { return args.command.empty() && !args.has("help") && !args.has("version"); }

Result<AppOptions> appOptionsFrom(const cli::Args& a) {
    AppOptions o;
    o.version = VKPUZZLES_VERSION;
    if (!a.positionals.empty()) return usage("unexpected '" + a.positionals[0] + "'");
    o.puzzleRoot = a.value("puzzles").value_or("");
    o.puzzle = a.value("puzzle").value_or("");
    o.kernel = a.value("kernel").value_or("");
    o.device = a.value("device").value_or("");
    o.screenshot = a.value("screenshot").value_or("");
    o.frameStats = a.has("frame-stats");
    o.reveal = a.has("reveal");
    o.inProcess = a.has("in-process");
    if (auto v = a.value("frames"); v && !parseInt(*v, 1, 1000000, o.frames)) return usage("--frames needs a whole number of frames, not '" + *v + "'");
    if (o.frameStats && o.frames == 0) o.frames = 330;
    if (auto v = a.value("size")) {
        int w = 0, h = 0;
        size_t x = v->find('x');
        if (x == std::string::npos || !parseInt(v->substr(0, x), 640, 16384, w) || !parseInt(v->substr(x + 1), 400, 16384, h))
            return usage("--size needs WIDTHxHEIGHT, at least 640x400, not '" + *v + "'");
        o.width = w, o.height = h;
    }
    if (auto v = a.value("theme")) {
        if (*v != "dark" && *v != "light") return usage("--theme is dark or light, not '" + *v + "'");
        o.theme = *v;
    }
    if (auto v = a.value("font-scale")) {
        char* end = nullptr;
        o.fontScale = std::strtof(v->c_str(), &end);
        if (v->empty() || *end || o.fontScale < 0.6f || o.fontScale > 3.0f) return usage("--font-scale needs a number from 0.6 to 3, not '" + *v + "'");
    }
    if (auto v = a.value("tab")) {
        if (*v != "statement" && *v != "hints" && *v != "solution" && *v != "device")
            return usage("--tab is statement, hints, solution or device, not '" + *v + "'");
        o.tab = *v;
    }
    if (auto v = a.value("case"); v && !parseInt(*v, 1, 1000000, o.caseNumber)) return usage("--case needs a case number, not '" + *v + "'");
    if (auto v = a.value("hover")) {
        float x = 0, y = 0;
        char tail = 0;
        if (std::sscanf(v->c_str(), "%f,%f%c", &x, &y, &tail) != 2) return usage("--hover needs X,Y in pixels, not '" + *v + "'");
        o.hover = std::make_pair(x, y);
    }
    return o;
}

int runAppFromArgs(const cli::Args& args, std::ostream& err) {
    auto options = appOptionsFrom(args);
    if (!options) {
        err << "vkpuzzles: " << options.error().message << "\n";
        return 2;
    }
    return runApp(*options);
}

} // namespace vkp::app
