#include "cli/arguments.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <sstream>

#include "cli/command_units.h"
#include "puzzle/passes.h"

namespace vkp::cli {
namespace {

// The commands, each with its unit (cli/command_units.h): the one list of their names.
const std::vector<CommandSpec>& commandTable() {
    static const std::vector<CommandSpec> table = {
        {.name = "list", .run = listCommand, .takes = 0},
        {.name = "show", .run = showCommand, .takes = 1},
        {.name = "hint", .run = hintCommand, .takes = 2},
        {.name = "check", .run = checkCommand},
        {.name = "run", .run = runCaseCommand},
        {.name = "trace", .run = traceCommand},
        {.name = "profile", .run = profileCommand},
        {.name = "walkthrough", .run = walkthroughCommand, .takes = 1},
        {.name = "bench", .run = benchCommand},
        {.name = "grade", .run = gradeCommand},
        {.name = "devices", .run = devicesCommand, .loadsPuzzles = false, .takes = 0},
        {.name = "help", .run = helpCommand, .loadsPuzzles = false},
        {.name = "new", .run = newCommand, .loadsPuzzles = false},
        {.name = "pack", .run = packCommand, .loadsPuzzles = false},
        {.name = "export", .run = exportCommand},
        {.name = "open", .run = openCommand, .loadsPuzzles = false},
        {.name = "watch", .run = watchCommand},
    };
    return table;
}

enum class ValueKind {
    None,       // a flag: --json
    Text,       // any text; the command reads it (--puzzles DIR, --n 2^24)
    Choice,     // one of `choices`
    Number,     // a whole number from lo to hi
    NumberList, // 1 to 3 whole numbers from lo to hi, comma-separated (--thread X,Y,Z)
};

// One row per option: what value it takes and which commands accept it. This is the one table
// of the command line; a command checks only what depends on the puzzle (--case against its
// number of cases). "app" is the desktop app (no command); --help and --version go anywhere.
struct OptionSpec {
    const char* name;
    ValueKind kind;
    const char* commands; // space-separated
    uint64_t lo = 0, hi = 0;
    std::vector<std::string> choices = {};
    bool repeatable = false; // may be given more than once (--input a=... --input b=...)
    // Commands where this flag takes a value instead (`grade --json FILE`; elsewhere --json is a
    // flag that prints JSON).
    const char* valueIn = "";
};

constexpr uint64_t kMaxCount = 1000000;
const char* const kAllCommands =
    "app list show hint check run trace profile walkthrough bench grade devices help new pack "
    "export open watch";
const char* const kRunning = "check run trace profile walkthrough bench grade pack export watch";

const std::vector<OptionSpec>& optionTable() {
    static const std::vector<OptionSpec> table = {
        {"help", ValueKind::None, kAllCommands},
        {"version", ValueKind::None, kAllCommands},
        {"puzzles",
         ValueKind::Text,
         "app list show hint check run trace profile walkthrough bench grade export watch",
         0,
         0,
         {},
         true},
        {"color",
         ValueKind::Choice,
         "list show hint check run trace profile walkthrough bench grade devices pack export open "
         "watch",
         0,
         0,
         {"auto", "always", "never"}},
        {"json",
         ValueKind::None,
         "list show check run trace profile walkthrough bench grade devices pack open",
         0,
         0,
         {},
         false,
         "grade"},
        {"device", ValueKind::Text,
         "app devices check run trace profile walkthrough bench grade pack export watch"},
        {"validation", ValueKind::None,
         "devices check run trace profile walkthrough bench export watch"},
        {"in-process", ValueKind::None,
         "app check run trace profile walkthrough bench pack export watch"},
        {"timeout", ValueKind::Number, kRunning, 1, 3600},
        {"solution", ValueKind::None, "check run trace profile bench export"},
        {"starter", ValueKind::None, "check run trace profile bench export"},
        {"all", ValueKind::None, "check grade bench"},
        {"csv", ValueKind::Text, "grade"},
        {"gradescope", ValueKind::Text, "grade"},
        {"prairielearn", ValueKind::Text, "grade"},
        {"github-result", ValueKind::Text, "grade"},
        {"case-files", ValueKind::Text, "grade"},
        {"html", ValueKind::Text, "grade"},
        {"shard", ValueKind::Text, "grade"},
        {"merge", ValueKind::None, "grade"},
        {"case", ValueKind::Number, "app check run trace profile bench export", 1, kMaxCount},
        {"timing", ValueKind::None, "check run"},
        {"no-trace", ValueKind::None, "check run watch"},
        {"no-schedule", ValueKind::None, "check watch"},
        {"own-subgroup-size", ValueKind::None, "check grade pack watch"},
        {"seed", ValueKind::Number, "check watch", 0, 999999999},
        {"reveal-hidden", ValueKind::None, "check run trace profile bench export"},
        {"repeat", ValueKind::Number, "check", 1, 1000},
        {"no-mutants", ValueKind::None, "pack"},
        {"thread", ValueKind::NumberList, "app trace open", 0, UINT32_MAX},
        {"dispatch", ValueKind::Number, "app trace open", 1, kMaxDispatchesPerCase},
        {"step", ValueKind::Number, "walkthrough app", 1, kMaxCount},
        {"input", ValueKind::Text, "run", 0, 0, {}, true},
        {"set", ValueKind::Text, "run bench", 0, 0, {}, true},
        {"workgroups", ValueKind::NumberList, "run", 1, 65535},
        {"workgroup-size", ValueKind::NumberList, "run bench", 1, 1024},
        {"n", ValueKind::Text, "bench"},
        {"reps", ValueKind::Number, "bench", 1, 1000},
        {"warmup", ValueKind::Number, "bench", 0, 60000},
        {"all-scans", ValueKind::None, "bench"},
        {"out", ValueKind::Text, "export"},
        {"print", ValueKind::None, "open"},
        {"screenshot", ValueKind::Text, "app open"},
        {"puzzle", ValueKind::Text, "app"},
        {"kernel", ValueKind::Text, "app"},
        {"frames", ValueKind::Number, "app open", 1, kMaxCount},
        {"frame-stats", ValueKind::None, "app"},
        {"presenter", ValueKind::None, "app open"},
        {"reveal", ValueKind::None, "app"},
        {"size", ValueKind::Text, "app open"},
        {"theme", ValueKind::Choice, "app open", 0, 0, {"dark", "light", "high-contrast"}},
        {"font-scale", ValueKind::Text, "app open"},
        {"tab", ValueKind::Text, "app open"},
        {"hover", ValueKind::Text, "app open"},
        {"multi-pass", ValueKind::None, "new"},
        {"dir", ValueKind::Text, "new"},
    };
    return table;
}

// Options renamed since, whose old spelling still works: --pass K became --dispatch K (a pass is
// one kernel of a multi-pass puzzle; K counts dispatches).
const std::map<std::string, std::string> kOldOptionNames = {{"pass", "dispatch"}};

const OptionSpec* findOption(const std::string& name) {
    auto renamed = kOldOptionNames.find(name);
    const std::string& current = renamed == kOldOptionNames.end() ? name : renamed->second;
    for (const OptionSpec& o : optionTable())
        if (current == o.name) return &o;
    return nullptr;
}

// Whether `command` is one of the space-separated `commands`.
bool listed(const char* commands, const std::string& command) {
    std::istringstream words(commands);
    std::string w;
    while (words >> w)
        if (w == (command.empty() ? "app" : command)) return true;
    return false;
}

bool accepts(const OptionSpec& o, const std::string& command) {
    return listed(o.commands, command);
}

bool takesValue(const OptionSpec& o, const std::string& command) {
    return o.kind != ValueKind::None || listed(o.valueIn, command);
}

// The command, found before the options are read (whether --json takes a value depends on it):
// the first command name that is neither an option nor an option's value (`--json FILE grade`:
// FILE may be --json's value, so words that are no command are passed over).
std::string commandIn(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        std::string s = argv[i];
        if (s.rfind("--", 0) == 0 && s.size() > 2) {
            const OptionSpec* o = findOption(s.substr(2, s.find('=') - 2));
            if (o && o->kind != ValueKind::None && s.find('=') == std::string::npos) ++i;
            continue;
        }
        if (findCommand(s)) return s;
    }
    return "";
}

Error usage(const std::string& message) {
    return Error{ErrorKind::Usage, message + " (see vkpuzzles --help)"};
}

// A whole number from lo to hi, without sign, spaces or overflow.
bool wholeNumber(const std::string& s, uint64_t lo, uint64_t hi) {
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size() && v >= lo && v <= hi;
}

std::optional<Error> checkValue(const OptionSpec& o, const std::string& value) {
    std::string range = std::to_string(o.lo) + " to " + std::to_string(o.hi);
    std::string shown = "'" + value + "'";
    switch (o.kind) {
    case ValueKind::None:
    case ValueKind::Text:
        return std::nullopt;
    case ValueKind::Choice:
        if (std::find(o.choices.begin(), o.choices.end(), value) != o.choices.end())
            return std::nullopt;
        return usage("--" + std::string(o.name) + " is " + joined(o.choices, ", ", " or ") +
                     ", not " + shown);
    case ValueKind::Number:
        if (wholeNumber(value, o.lo, o.hi)) return std::nullopt;
        return usage("--" + std::string(o.name) + " needs a whole number from " + range + ", not " +
                     shown);
    case ValueKind::NumberList: {
        std::istringstream parts(value);
        std::string part;
        int n = 0;
        bool ok = !value.empty() && value.back() != ',';
        while (ok && std::getline(parts, part, ','))
            ok = ++n <= 3 && wholeNumber(part, o.lo, o.hi);
        if (ok) return std::nullopt;
        return usage("--" + std::string(o.name) + " needs X, X,Y or X,Y,Z, whole numbers from " +
                     range + ", not " + shown);
    }
    }
    return std::nullopt;
}

// "--theme is not an option of `vkpuzzles show`; it is for the desktop app".
Error notForCommand(const OptionSpec& o, const std::string& command) {
    std::vector<std::string> owners;
    std::istringstream words(o.commands);
    std::string w;
    while (words >> w)
        owners.push_back(w == "app" ? "the desktop app (no command)" : "vkpuzzles " + w);
    std::string here =
        command.empty() ? "the desktop app (no command)" : "`vkpuzzles " + command + "`";
    return usage("--" + std::string(o.name) + " is not an option of " + here + "; it is for " +
                 joined(owners, ", ", " and "));
}

} // namespace

Result<Args> parseArgs(int argc, char** argv) {
    Args a;
    std::vector<std::pair<const OptionSpec*, std::string>> given; // in the order written
    std::string command = commandIn(argc, argv);
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
            const OptionSpec* o = findOption(name);
            if (!o) return usage("unknown option '" + s + "'");
            bool valued = takesValue(*o, command);
            if (!valued && inlineValue) return usage("--" + name + " takes no value");
            if (valued && !inlineValue) {
                if (i + 1 >= argc) return usage("--" + name + " needs a value");
                value = argv[++i];
            }
            given.emplace_back(o, value);
        } else if (s.size() > 1 && s[0] == '-' && !std::isdigit(static_cast<unsigned char>(s[1]))) {
            return usage("unknown option '" + s + "'");
        } else if (a.command.empty()) {
            if (!findCommand(s)) return usage("unknown command '" + s + "'");
            a.command = s;
        } else {
            a.positionals.push_back(s);
        }
    }
    // The command may come after its options, so they are checked once it is known: first
    // whether the option belongs to it, then the value. --help prints the help whatever else
    // is given, so it skips both.
    bool help = a.command == "help" || std::any_of(given.begin(), given.end(), [](const auto& g) {
                    return g.first->name == std::string("help");
                });
    for (const auto& [o, value] : given) {
        if (!help && !accepts(*o, a.command)) return notForCommand(*o, a.command);
        if (auto bad = help ? std::nullopt : checkValue(*o, value)) return *bad;
        if (!takesValue(*o, a.command))
            a.flags.push_back(o->name);
        else if (o->repeatable)
            a.repeated.emplace_back(o->name, value);
        else
            a.values[o->name] = value;
    }
    return a;
}

const CommandSpec* findCommand(const std::string& name) {
    for (const CommandSpec& c : commandTable())
        if (name == c.name) return &c;
    return nullptr;
}

namespace {

// `vkpuzzles --help`, in its sections: the commands,
constexpr const char* kHelpUsage =
    R"(vkpuzzles - learn GPU programming by solving puzzles with real Vulkan compute kernels

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
  vkpuzzles watch PUZZLE KERNEL.comp [...]        check again at every save, from your own editor;
                                                  problems as FILE:LINE:COL: error: lines that
                                                  editors jump to (Ctrl+C stops)
  vkpuzzles run PUZZLE KERNEL.comp [--case N]     one case's launch shape and buffers in full, and
                                                  its debugPrintfEXT output by thread
  vkpuzzles run PUZZLE KERNEL.comp --input a=1,2,3 [--input b=...] [--workgroups X[,Y[,Z]]]
                [--workgroup-size X[,Y[,Z]]] [--set NAME=VALUE] [--case N]
                                                  your own case: case N (default 1) with these
                                                  inputs, launch shape and constants; checked
                                                  against the puzzle's reference op when it has one
  vkpuzzles trace PUZZLE KERNEL.comp [--case N] [--thread X[,Y[,Z]]] [--dispatch K]
                                                  what every thread read and wrote, barrier rounds
                                                  (--thread: with its printf lines among them)
                                                  (--dispatch: the K-th dispatch of a multi-pass case)
  vkpuzzles profile PUZZLE [KERNEL.comp ... | --solution] [--case N]
                                                  why a correct kernel is slow: per source line,
                                                  most costly first, the sectors its global
                                                  requests touch against the fewest that hold
                                                  their bytes, shared-memory bank conflicts, idle
                                                  lanes, repeated reads and atomics on one address,
                                                  for a model of 32 lanes, 32-byte sectors and 32
                                                  banks (default case: the one bench scales)
  vkpuzzles walkthrough PUZZLE [--step K]         the official solution explained step by step, with
                                                  the shared memory and accesses each step points at
  vkpuzzles bench PUZZLE [KERNEL.comp ...] [--solution] [--n 2^24] [--reps R] [--warmup MS]
                                                  the kernel at a large N against the device's copy
                                                  bandwidth and a CPU run, after MS milliseconds of
                                                  untimed runs (default 500); registers per thread
                                                  where the driver says. N counts elements of the
                                                  first input; a matrix becomes rows x cols = N,
                                                  as square as N allows (2^20: 1024 x 1024); a
                                                  puzzle of one workgroup runs at its own N
  vkpuzzles bench PUZZLE ... [--workgroup-size X] [--set NAME=VALUE]
                                                  both kernels at another launch shape: the
                                                  benchmark's case with these threads per
                                                  workgroup and constants (ITEMS=8)
  vkpuzzles bench --all-scans [--n 2^24]          every official scan side by side, beside the
                                                  copy and the CPU's scan, one table
  vkpuzzles bench --all [--n 2^24]                every official solution, one line each
                                                  (without --n: each at its puzzle's bench_n)
  vkpuzzles grade PUZZLE DIR [--csv F] [--json F] [--html F] [--gradescope F]
                [--prairielearn F] [--github-result F] [--case-files D]
                                                  grade a class: every KERNEL.comp (or folder of
                                                  one file per kernel) in DIR is one student's
                                                  submission, checked as check does and scored by
                                                  the points of the cases it passes
  vkpuzzles grade --all DIR                       DIR holds a folder per student, each with
                                                  SLUG.comp or SLUG/ per puzzle of the set
  vkpuzzles grade ... --shard K/N --json F        grade share K of N of the class (N machines,
                                                  one share each) for --merge
  vkpuzzles grade --merge F... [--csv F] [--json F] [--html F]
                                                  the shares' JSON files put together: the same
                                                  files one run over the whole class writes
  vkpuzzles export PUZZLE [KERNEL.comp ... | --solution | --starter] [--case N] [--out FILE]
                                                  a case file (.vkpcase) to share what you see:
                                                  the puzzle, your kernel, one case (default: the
                                                  first that fails), the device, the verdict and
                                                  the trace, in one file (docs/case-files.md)
  vkpuzzles open FILE.vkpcase                     a case file in the app, read-only, with every
                                                  view, on any machine, running nothing
  vkpuzzles open FILE.vkpcase --print | --json    the same as trace prints it, without a window
                                                  (--thread, --dispatch as for trace)
  vkpuzzles devices                               the Vulkan devices and their limits
  vkpuzzles new SLUG [--multi-pass] [--dir DIR]   write a working puzzle folder DIR/NN-SLUG (DIR:
                                                  default the current folder; NN: the next number)
                                                  to start a puzzle of your own from
  vkpuzzles pack check DIR [--no-mutants]         an author's check of a pack, of puzzles/ or of
                                                  one puzzle's folder:
                                                  every puzzle loads, its solution passes, its
                                                  starter fails, its statement names every buffer,
                                                  its cases differ; warnings for weak cases; and
                                                  mutants of the solution (a barrier removed, local
                                                  for global id, < for <=, a guard removed, an index
                                                  off by one, a size hard-coded...) that the cases
                                                  fail to catch, with the line and advice

)";

// how a puzzle is named,
constexpr const char* kHelpPuzzleNames =
    R"(PUZZLE is a folder name (01-map), a slug (map) or a number (1); with --puzzles, a pack's puzzle
is found first, and PACK/PUZZLE names one in the pack of that folder name. With packs given,
check --all means the packs' puzzles.

)";

// the options (the app's among them),
constexpr const char* kHelpOptions = R"(Options:
  --case N          only case N (1-based); with --input, the case yours starts from
  --input B=VALUES  run: buffer B holds these values: 1,2,3 (commas or spaces), rows of a 2D
                    buffer separated by ';' ('1 2; 3 4'), or a fill of the puzzle format
                    ('{ shape = [64], fill = "iota" }'); sizes written as expressions of N follow
  --workgroups X[,Y[,Z]]   run: the workgroup count of your case
  --workgroup-size X[,Y[,Z]]  run, bench: the threads per workgroup of your case
  --set NAME=VALUE  run, bench: a puzzle constant (SIZE=4) of your case
  --json            machine-readable output (schema: docs/json-output.md)
  --timing          time per stage: compile, pipeline, run, check
  --no-trace        check without execution tracing (no race, bounds or limit checks, the
                    efficiency limits of [limits] included)
  --no-schedule     check without the puzzle's forced schedules ([[schedule]]: a workgroup held)
  --seed N          check: the fresh random inputs drawn from seed N (a check prints the seed it
                    drew: this replays it). After the puzzle's fixed data, the cases with random
                    inputs run again on data from a fresh seed, and must pass there too; the
                    cases a puzzle's [[search]] generates are drawn from the same seed
  --own-subgroup-size  check only with the device's own subgroup size; by default a kernel
                    that uses subgroups is also run on lavapipe with 4, 8 and 16 lanes, and
                    with 32 and 64 emulated, and fails if it is right with one and wrong with
                    another
  --reveal-hidden   for the teacher: show the data of the cases the puzzle hides from students
                    (hidden = true); without it check shows only whether they pass, and run and
                    trace refuse them
  --repeat N        check N times in one process; --timing then shows the median of the warm runs
  --no-mutants      pack check: skip mutation testing
  --timeout S       seconds a case may run, from when the case before it finished, before it
                    is given up (default 2 on a GPU, 60 on a CPU device, env:
                    VKPUZZLES_TIMEOUT; bench: one repetition, default 60); the worker process
                    running it is then restarted. Endless loops are stopped sooner, by the loop
                    guard; this catches launches too large to finish and hung drivers
  --in-process      run kernels in this process instead of an isolated worker
  --out FILE        export: the case file to write (default: SLUG-caseN.vkpcase here)
  --print           open: print the case file's case instead of opening the app
  --csv FILE        grade: one row per submission: name, score, max_score, points per case
  --json FILE       grade: every submission's score and cases (docs/json-output.md)
  --gradescope FILE grade: Gradescope's results.json for a folder of one submission
  --prairielearn FILE
                    grade: PrairieLearn's external grader results.json for a folder of one
                    submission (not gradable when the kernel does not compile)
  --github-result FILE
                    grade: for a folder of one submission, the result GitHub Classroom's
                    grading reporter reads (its base64 is the runner step's output `result`).
                    Students read these three: a hidden case shows only that it exists and
                    whether it passed. Ready graders for the three platforms: classroom/ in
                    the source, /usr/share/doc/vkpuzzles/classroom from the .deb
                    (docs/graders.md)
  --case-files DIR  grade: for each submission that fails a case it ran, that case traced as
                    DIR/STUDENT-SLUG-caseN.vkpcase, to open with vkpuzzles open
  --html FILE       grade: the class report, one self-contained page: per puzzle the scores,
                    the failures with the students behind them, the cases failed; every student
                    in a sortable table, with their case files linked
  --shard K/N       grade: only share K of N of the submissions (every N-th in name order, so
                    every machine agrees); needs --json FILE, for grade --merge
  --merge           grade: the arguments are the JSON files of every share of a class
  --device D        device index, "cpu", "gpu" or part of its name (env: VKPUZZLES_DEVICE)
  --puzzles DIR     add the puzzle pack in DIR beside the built-in puzzles (repeatable)
  --multi-pass      new: two kernels run by two passes (starter/ and solution/ folders)
  --dir DIR         new: the pack's folder to write the puzzle in (default: the current one)
  --color WHEN      auto (default), always or never
  --validation      enable the Vulkan validation layer and report what it says
  --help, --version

App options (no command):
  --puzzle P        open this puzzle        --kernel K.comp   put this kernel in the editor
                                            (multi-pass: a folder of NAME.comp, or K1.comp,K2.comp)
  --theme T         dark or light           --font-scale S    text size, 1 = 100% (Ctrl+= / Ctrl+-)
  --size WxH        window size             --case N          select test case N
  --tab T           statement, hints, solution, device, efficiency, buffers, timeline, watches,
                    console, lookback or walkthrough         --reveal   show every hint and the solution
  --thread X[,Y,Z]  select this thread      --dispatch K      show dispatch K of a multi-pass case
  --step K          play the official solution's walkthrough from step K (the last if fewer)
  --hover X,Y       pretend the pointer is at X,Y (screenshots of tooltips and highlights)
  --frames N        quit after N frames     --frame-stats     print frame times (median, worst)
  The app keeps drafts, progress and settings in $XDG_DATA_HOME/vkpuzzles (~/.local/share/vkpuzzles;
  on Windows %APPDATA%\vkpuzzles); --screenshot and --frames runs leave them untouched.

)";

// and the exit status.
constexpr const char* kHelpExitStatus =
    R"(Exit status: 0 all cases pass; 1 a case fails or the kernel does not compile (pack check: a
puzzle does not load or has a problem, or a mutant survives); 2 bad usage, a bad puzzle file, or
no usable device. grade: 0 once the class is graded, whatever the scores; 2 bad usage (no such
folder or puzzle, no submission in the folder; --merge: shares that do not make one class).
watch runs until Ctrl+C.
)";

} // namespace

const std::string& helpText() {
    static const std::string text =
        std::string(kHelpUsage) + kHelpPuzzleNames + kHelpOptions + kHelpExitStatus;
    return text;
}

} // namespace vkp::cli
