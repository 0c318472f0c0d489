#include "cli/args.h"

#include <algorithm>
#include <set>

namespace vkp::cli {
namespace {

const std::set<std::string> kCommands = {"list", "show", "hint", "check", "run", "trace", "walkthrough", "bench", "devices", "help"};
const std::set<std::string> kValueOptions = {"puzzles", "device", "case", "timeout", "repeat", "color", "thread", "step", "n", "reps", "warmup", "pass",
                                             // the desktop app (no command)
                                             "screenshot", "puzzle", "kernel", "frames", "size", "theme", "font-scale", "tab", "hover"};
const std::set<std::string> kFlags = {"solution", "starter", "all", "json", "timing", "help", "version", "validation", "no-trace", "in-process",
                                      "frame-stats", "reveal", "all-scans"};

} // namespace

bool Args::has(const std::string& flag) const {
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

std::optional<std::string> Args::value(const std::string& name) const {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
}

Result<Args> parseArgs(int argc, char** argv) {
    Args a;
    auto usage = [](std::string m) { return Error{ErrorKind::Usage, m + " (see vkpuzzles --help)"}; };
    for (int i = 1; i < argc; ++i) {
        std::string s = argv[i];
        if (s == "-h") s = "--help";
        if (s.rfind("--", 0) == 0 && s.size() > 2) {
            std::string name = s.substr(2), value;
            size_t eq = name.find('=');
            bool inlineValue = eq != std::string::npos;
            if (inlineValue) {
                value = name.substr(eq + 1);
                name = name.substr(0, eq);
            }
            if (kFlags.count(name)) {
                if (inlineValue) return usage("--" + name + " takes no value");
                a.flags.push_back(name);
            } else if (kValueOptions.count(name)) {
                if (!inlineValue) {
                    if (i + 1 >= argc) return usage("--" + name + " needs a value");
                    value = argv[++i];
                }
                a.values[name] = value;
            } else {
                return usage("unknown option '" + s + "'");
            }
        } else if (s.size() > 1 && s[0] == '-' && !std::isdigit(static_cast<unsigned char>(s[1]))) {
            return usage("unknown option '" + s + "'");
        } else if (a.command.empty()) {
            if (!kCommands.count(s)) return usage("unknown command '" + s + "'");
            a.command = s;
        } else {
            a.positionals.push_back(s);
        }
    }
    return a;
}

const char* helpText() {
    return R"(vkpuzzles - learn GPU programming by solving puzzles with real Vulkan compute kernels

Usage:
  vkpuzzles                                       the desktop app: edit a kernel, see it checked live
  vkpuzzles --screenshot FILE.png [--puzzle P] [--kernel K]
                                                  render the app in that state, save a PNG, exit
  vkpuzzles list                                  the puzzles, by track
  vkpuzzles show PUZZLE                           statement, buffers and test cases
  vkpuzzles hint PUZZLE [N]                       the first N hints (default 1)
  vkpuzzles check PUZZLE [KERNEL.comp ...]        compile and run a kernel against every case
                                                  (a multi-pass puzzle takes one file per kernel)
  vkpuzzles check PUZZLE --solution | --starter   check the official solution or the starter
  vkpuzzles check --all --solution                every official solution, one line each
  vkpuzzles run PUZZLE KERNEL.comp [--case N]     one case's launch shape and buffers in full
  vkpuzzles trace PUZZLE KERNEL.comp [--case N] [--thread X[,Y[,Z]]] [--pass K]
                                                  what every thread read and wrote, barrier rounds
                                                  (--pass: the K-th dispatch of a multi-pass case)
  vkpuzzles walkthrough PUZZLE [--step K]         the official solution explained step by step, with
                                                  the shared memory and accesses each step points at
  vkpuzzles bench PUZZLE [KERNEL.comp ...] [--solution] [--n 2^24] [--reps R] [--warmup MS]
                                                  the kernel at a large N against the device's copy
                                                  bandwidth and a CPU run, after MS milliseconds of
                                                  untimed runs (default 500); registers per thread
                                                  where the driver says
  vkpuzzles bench --all-scans [--n 2^24]          every official scan side by side, one table
  vkpuzzles devices                               the Vulkan devices and their limits

PUZZLE is a folder name (01-map), a slug (map) or a number (1).

Options:
  --case N          only case N (1-based)
  --json            machine-readable output (schema: docs/json-output.md)
  --timing          time per stage: compile, pipeline, run, check
  --no-trace        check without execution tracing (no race, bounds or limit checks)
  --repeat N        check N times in one process; --timing then shows the median of the warm runs
  --timeout S       seconds a case may run before it is called endless (default 2 on a GPU,
                    10 on a CPU device, env: VKPUZZLES_TIMEOUT; bench: one repetition,
                    default 60); the worker process running it is then restarted
  --in-process      run kernels in this process instead of an isolated worker
  --device D        device index, "cpu", "gpu" or part of its name (env: VKPUZZLES_DEVICE)
  --puzzles DIR     load puzzles from DIR (env: VKPUZZLES_PUZZLES)
  --color WHEN      auto (default), always or never
  --validation      enable the Vulkan validation layer and report what it says
  --help, --version

App options (no command):
  --puzzle P        open this puzzle        --kernel K.comp   put this kernel in the editor
                                            (multi-pass: a folder of NAME.comp, or K1.comp,K2.comp)
  --theme T         dark or light           --font-scale S    text size, 1 = 100% (Ctrl+= / Ctrl+-)
  --size WxH        window size             --case N          select test case N
  --tab T           statement, hints, solution or device     --reveal   show every hint and the solution
  --thread X[,Y,Z]  select this thread      --pass K          show dispatch K of a multi-pass case
  --hover X,Y       pretend the pointer is at X,Y (screenshots of tooltips and highlights)
  --frames N        quit after N frames     --frame-stats     print frame times (median, worst)
  The app keeps drafts, progress and settings in $XDG_DATA_HOME/vkpuzzles (~/.local/share/vkpuzzles);
  --screenshot and --frames runs leave them untouched.

Exit status: 0 all cases pass; 1 a case fails or the kernel does not compile;
2 bad usage, a bad puzzle file, or no usable device.
)";
}

} // namespace vkp::cli
