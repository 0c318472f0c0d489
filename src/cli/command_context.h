// What the vkpuzzles commands share in one run of the command line: its arguments, the output
// streams and their Style, the puzzles, shaderc and the device, and the helpers every command
// calls (usage and error reports, the puzzle and kernel arguments, the engines). Each command is a
// unit of its own over this context (cli/command_units.h). Internal to cli (commands.h is the
// interface).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "base/args.h"
#include "base/result.h"
#include "check/check.h"
#include "check/subgroup_sizes.h"
#include "cli/command_units.h" // the units that run over the context
#include "cli/commands.h"      // the exit statuses
#include "cli/style.h"
#include "gpu/context.h"
#include "gpu/device_runner.h"
#include "puzzle/puzzle_loader.h"
#include "report/json_text.h" // jsonText, kJsonVersion: what a command's JSON is printed with
#include "shader/compiler.h"

namespace vkp::cli {

struct CommandContext {
    CommandContext(const Args& a, std::ostream& o, std::ostream& e, std::ostream& raw)
        : args(a), out(o), err(e), rawErr(raw),
          style(Style::detect(a.value("color").value_or("auto"))) {}

    // A usage error on stderr; the exit status.
    int usage(const std::string& message);
    // Words after what the command takes (`show map extra`): the message that refuses them.
    std::optional<std::string> extraWords(size_t takes) const;
    // An error on stderr; the exit status it calls for.
    int report(const Error& e);
    bool json() const { return args.has("json"); }
    // Students see a hidden case's verdict only; --reveal-hidden (the teacher) sees it all.
    void studentView(CheckReport& r, const Puzzle& p) const;
    int loadPuzzles();
    Result<const Puzzle*> puzzleArg();
    Result<uint64_t> number(const char* name, uint64_t lo, uint64_t hi, uint64_t def);
    // Kernels run in an isolated worker process unless --in-process; either way the device
    // opens beside shaderc's first (table-building) compile.
    // `timed`: the kernels are benchmarked, so the driver compiles them as well as it can;
    // otherwise they are checked and compiled fast (ContextOptions::quickCompile).
    Status startEngines(bool timed = false);
    // The kernel texts: the official solution's or the starter's files, or the files named after
    // the puzzle (matched to a multi-pass puzzle's kernels by file name, else in order).
    Result<std::vector<KernelSource>> kernelsArg(const Puzzle& p);
    // The lavapipe devices at other subgroup sizes, unless --own-subgroup-size.
    void openSizes();
    // `device`: the device's name ("": the device this run opened).
    nlohmann::json withDevice(nlohmann::json j, const std::string& device = "");
    static std::string filesText(const std::vector<KernelSource>& sources);
    // What ran, for a report's first line: the learner's files as given, or "official solution" /
    // "starter" with its kernels' names rather than their paths inside the puzzle folder.
    std::string ranText(const std::vector<KernelSource>& sources) const;
    // A report's first line: the puzzle, what ran and on which device.
    void printRanLine(const Puzzle& p, const std::vector<KernelSource>& sources);
    void printValidation();
    // The exit status of a check; a wedged device is left running and the process ends here.
    int finish(const CheckReport& r);

    // The puzzle named first and the kernels after it (puzzleArg, then kernelsArg).
    struct PuzzleKernels {
        const Puzzle* puzzle = nullptr;
        std::vector<KernelSource> kernels;
    };
    Result<PuzzleKernels> puzzleKernelsArg();
    // What `run` and `trace` share: the puzzle, the kernel file and the one case they show.
    struct OneCase : PuzzleKernels {
        size_t index = 0;
    };
    Result<OneCase> oneCaseArgs();

    const Args& args;
    std::ostream& out;
    std::ostream& err;
    std::ostream& rawErr; // unfiltered: grade's progress bar redraws its line in place
    Style style;
    PuzzleSet set;
    Compiler compiler;
    GpuContext* gpu = nullptr;            // with --in-process: runner's own device
    std::unique_ptr<DeviceRunner> runner; // where kernels run
    CheckOptions options;
    // lavapipe at other subgroup sizes, opened at first need (--own-subgroup-size: never).
    std::unique_ptr<SubgroupSizeDevices> sizes;
};

} // namespace vkp::cli
