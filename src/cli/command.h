// One run of the vkpuzzles command line: its arguments, the puzzles, shaderc and the device, and
// a member per command. Internal to cli (commands.h is the interface). The members are defined by
// theme: commands.cpp (the puzzles, check, run, grade, pack), bench_command.cpp (bench),
// traced_commands.cpp (trace, profile, walkthrough: the commands that show a traced run) and
// watch_command.cpp (watch).
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "base/args.h"
#include "base/result.h"
#include "cli/style.h"
#include "gpu/context.h"
#include "gpu/device_runner.h"
#include "puzzle/puzzle_loader.h"
#include "session/bench.h"
#include "session/check.h"
#include "session/subgroup_sizes.h"
#include "shader/compiler.h"

namespace vkp::cli {

class Command {
  public:
    Command(const Args& a, std::ostream& out, std::ostream& err, std::ostream& rawErr)
        : m_a(a), m_out(out), m_err(err), m_rawErr(rawErr),
          m_style(Style::detect(a.value("color").value_or("auto"))) {}

    int run(); // the process exit status (commands.h)

  private:
    // Shared by the commands.
    int usage(const std::string& message);
    std::optional<std::string> extraWords(size_t takes) const;
    int report(const Error& e);
    bool json() const { return m_a.has("json"); }
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
    // `device`: the device's name ("": the device this run opened).
    nlohmann::json withDevice(nlohmann::json j, const std::string& device = "");
    static std::string filesText(const std::vector<KernelSource>& sources);
    // What ran, for a report's first line: the learner's files as given, or "official solution" /
    // "starter" with its kernels' names rather than their paths inside the puzzle folder.
    std::string ranText(const std::vector<KernelSource>& sources) const;
    void printValidation();
    int finish(const CheckReport& r);

    // Case files (case_file_commands.cpp): `export` writes one, `open --print` prints one.
    int exportCase();
    int openCase();
    int printTracedCase(const Puzzle& puzzle, const CheckReport& r,
                        const std::vector<KernelSource>& kernels, const std::string& ran,
                        const std::string& device, size_t dispatch, std::optional<uint64_t> thread);

    // The puzzles (commands.cpp).
    int list();
    int show();
    int hint();
    int devices();
    // `pack check DIR`: the author's lint of a pack (cli/pack_check_report.h).
    int pack();

    // Checking and running kernels (commands.cpp).
    int check();
    // The check of `kernels` as `check` prints it, cases as they are decided (`repeat` runs:
    // the timings of the warm ones), then the other subgroup sizes and fresh inputs.
    Result<CheckReport> checkPrinted(const Puzzle& p, const std::vector<KernelSource>& kernels,
                                     uint64_t repeat = 1);
    // `watch PUZZLE FILE.comp...`: checks again at every save (cli/watch_command.cpp).
    int watch();
    // `shown`: cases printed as the check went (printCheckHead, then printCase each).
    // `sizesShown`: runs at other subgroup sizes printed as they came.
    void printCheckText(const Puzzle& p, const CheckReport& r,
                        const std::vector<KernelSource>& sources, size_t shown = 0,
                        size_t sizesShown = 0);
    void printCheckHead(const Puzzle& p, const CheckReport& r,
                        const std::vector<KernelSource>& sources);
    std::string runHint(const Puzzle& p, const std::vector<KernelSource>& sources) const;
    int checkAll();
    // The check's cases at the other subgroup sizes (session/subgroup_sizes.h), unless
    // --own-subgroup-size; `onSize` is told as each size ends. Returns the sizes run.
    size_t checkOtherSizes(const Puzzle& p, const std::vector<KernelSource>& sources,
                           CheckReport& r, const SizeEnded& onSize);
    void printAllLine(const Puzzle& p, const CheckReport& r);
    void printNotRunLine(const Puzzle& p, const std::string& why);
    std::string allLineHead(const Puzzle& p) const;
    static const CaseOutcome* firstCaseError(const CheckReport& r);
    // What `run` and `trace` share: the puzzle, the kernel file and the one case they show.
    struct OneCase {
        const Puzzle* puzzle = nullptr;
        std::vector<KernelSource> kernels;
        size_t index = 0;
    };
    Result<OneCase> oneCaseArgs();
    // --input and friends: the learner's case, appended to a copy of the puzzle and run alone.
    Result<Puzzle> ownCasePuzzle(const OneCase& one);
    int runCase();
    // A class's submissions, each checked as `check` checks a kernel (cli/grade_command.h).
    int grade();

    // `bench` (bench_command.cpp).
    Result<std::string> copyShader() const;
    Result<BenchOptions> benchOptions(const Puzzle* p);
    // A long run's steps on stderr, one line each.
    std::function<void(const std::string&)> progressLines(std::string indent);
    int benchFailed(const Error& e);
    int bench();
    // Every official solution at the same N, one row each: the scan track's (`--all-scans`, the
    // seeds' comparison, beside the copy and the CPU scan) or every puzzle's (`--all`), a puzzle
    // the device cannot run listed as not run.
    int benchEvery(bool scansOnly);

    // Traced runs (traced_commands.cpp).
    // `profile`: one case traced, the efficiency lens's table per kernel (cli/profile_command.h).
    int profile();
    int traceCase();
    // Plays the official solution's walkthrough: a traced run on its case, then the steps.
    int walkthrough();

    const Args& m_a;
    std::ostream& m_out;
    std::ostream& m_err;
    std::ostream& m_rawErr; // unfiltered: grade's progress bar redraws its line in place
    Style m_style;
    PuzzleSet m_set;
    Compiler m_compiler;
    GpuContext* m_gpu = nullptr;            // with --in-process: m_runner's own device
    std::unique_ptr<DeviceRunner> m_runner; // where kernels run
    CheckOptions m_options;
    // lavapipe at other subgroup sizes, opened at first need (--own-subgroup-size: never).
    std::unique_ptr<SubgroupSizeDevices> m_sizes;
};

} // namespace vkp::cli
