// `vkpuzzles watch PUZZLE FILE.comp ...`: the learner edits in their own editor and the kernel is
// checked again at every save, as exercise trainers such as rustlings do. Each check prints as
// `check` does (cases as they are decided), then its problems as FILE:LINE:COL: lines, the form
// compilers print, which VS Code's problem matchers, vim's quickfix and Emacs' compile mode read.
#include <chrono>
#include <ctime>
#include <map>
#include <thread>
#include <tuple>

#include "base/os.h"
#include "base/text_file.h"
#include "check/hidden_cases.h"
#include "cli/check_command.h"
#include "judge/finding.h"

namespace vkp::cli {
namespace {

// A check's findings as the lines compilers print, one per finding and line, with the cases it
// came back in: "my-map.comp:10:1: error: endless loop?: thread 0 was stopped ... (cases 1, 2)";
// a finding without a line is "FILE: error: ...". Hidden cases are left out.
std::vector<std::string> problemLines(const Puzzle& p, const CheckReport& r,
                                      const std::vector<KernelSource>& sources) {
    // One line per finding (kernel, line, kind), with the cases it came back in.
    struct Problem {
        std::string message;
        bool error = true;
        std::vector<size_t> cases;
    };
    std::map<std::tuple<size_t, uint32_t, FindingKind>, Problem> problems;
    auto add = [&](size_t kernel, const Finding& f, size_t caseIndex) {
        Problem& pr = problems[{kernel, f.line, f.kind}];
        if (pr.cases.empty()) {
            pr.message = std::string(findingKindName(f.kind)) + ": " + f.message;
            pr.error = f.failsCase;
        }
        if (pr.cases.empty() || pr.cases.back() != caseIndex) pr.cases.push_back(caseIndex);
    };
    for (const CaseOutcome& c : r.cases) {
        if (c.hidden || caseHidden(p, c.index)) continue; // a student sees a hidden case's verdict
        if (c.analysis && c.dispatches.empty())
            for (const Finding& f : c.analysis->findings)
                add(0, f, c.index);
        for (const DispatchTrace& d : c.dispatches)
            if (d.analysis)
                for (const Finding& f : d.analysis->findings)
                    add(d.kernel, f, c.index);
        for (const Finding& f : c.runFindings)
            add(0, f, c.index);
    }
    std::vector<std::string> out;
    for (const auto& [key, pr] : problems) {
        auto [kernel, line, kind] = key;
        std::string file = kernel < sources.size() ? sources[kernel].file : r.kernelFile;
        std::string cases;
        for (size_t i = 0; i < pr.cases.size() && i < 8; ++i)
            cases += (cases.empty() ? "" : ", ") + std::to_string(pr.cases[i] + 1);
        if (pr.cases.size() > 8) cases += ", ...";
        std::string where = line > 0 ? file + ":" + std::to_string(line) + ":1: " : file + ": ";
        out.push_back(where + (pr.error ? "error: " : "warning: ") + pr.message + " (case" +
                      (pr.cases.size() == 1 ? " " : "s ") + cases + ")");
    }
    return out;
}

// What the watched files hold now ("" for a file that cannot be read: its error is the check's).
std::vector<std::string> contents(const std::vector<std::string>& files) {
    std::vector<std::string> out;
    for (const std::string& f : files) {
        auto text = readTextFile(f);
        out.push_back(text ? *text : "\x01" + text.error().message);
    }
    return out;
}

// Waits until the files hold something else, and have held it for one more look (an editor that
// saves in steps, or through a temporary file, is not caught half way).
void waitForChange(const std::vector<std::string>& files, std::vector<std::string>& seen) {
    constexpr auto kLook = std::chrono::milliseconds(250);
    for (;;) {
        std::this_thread::sleep_for(kLook);
        std::vector<std::string> now = contents(files);
        if (now == seen) continue;
        std::this_thread::sleep_for(kLook);
        std::vector<std::string> settled = contents(files);
        if (settled != now) continue;
        seen = std::move(settled);
        return;
    }
}

std::string clock() {
    std::tm now = os::localTime(std::time(nullptr));
    char text[16];
    std::strftime(text, sizeof text, "%H:%M:%S", &now);
    return text;
}

} // namespace

int watchCommand(CommandContext& ctx) {
    auto p = ctx.puzzleArg();
    if (!p) return ctx.report(p.error());
    const Args& a = ctx.args;
    const Style& st = ctx.style;
    if (a.positionals.size() < 2)
        return ctx.usage("watch follows your kernel files: name them (vkpuzzles watch " +
                         (*p)->slug + " my-kernel.comp)");
    std::vector<std::string> files(a.positionals.begin() + 1, a.positionals.end());
    if (auto s = ctx.startEngines(); !s) return ctx.report(s.error());
    std::string names;
    for (const std::string& f : files)
        names += (names.empty() ? "" : ", ") + f;
    std::vector<std::string> seen = contents(files);
    for (bool first = true;; first = false) {
        if (!first) ctx.out << "\n" << st.bold(clock() + "  saved: checking again") << "\n";
        auto kernels = ctx.kernelsArg(**p);
        if (!kernels) {
            ctx.out << st.fail("error: ") << kernels.error().message << "\n";
        } else if (auto r = checkPrinted(ctx, **p, *kernels); !r) {
            ctx.out << st.fail("error: ") << r.error().message << "\n";
        } else if (std::vector<std::string> lines = problemLines(**p, *r, *kernels);
                   !lines.empty()) {
            ctx.out << st.dim("problems, as an editor reads them:") << "\n";
            for (const std::string& line : lines)
                ctx.out << line << "\n";
        }
        ctx.out << st.dim("watching " + names + ": save to check again (Ctrl+C stops)") << "\n"
                << std::flush;
        waitForChange(files, seen);
    }
}

} // namespace vkp::cli
