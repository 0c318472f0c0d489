// The commands that read the puzzles and run nothing: `list` (the puzzles, by track), `show` (one
// puzzle's statement, buffers and cases) and `hint` (its first N hints).
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "cli/command_context.h"
#include "cli/json_report.h"
#include "cli/text_report.h"
#include "puzzle/walkthrough.h"

namespace vkp::cli {

int listCommand(CommandContext& ctx) {
    if (!ctx.json()) {
        printPuzzleList(ctx.out, ctx.set, ctx.style);
        ctx.out << "\nStart with: " << ctx.set.inScope().front()->command("show") << "\n";
        return kExitPass;
    }
    nlohmann::json j = nlohmann::json::array();
    for (const Puzzle& p : ctx.set.puzzles)
        j.push_back(puzzleJson(p));
    ctx.out << jsonText(nlohmann::json{{"version", kJsonVersion}, {"puzzles", j}}) << "\n";
    return kExitPass;
}

int showCommand(CommandContext& ctx) {
    auto p = ctx.puzzleArg();
    if (!p) return ctx.report(p.error());
    if (ctx.json())
        ctx.out << jsonText(puzzleJson(**p)) << "\n";
    else
        printPuzzle(ctx.out, **p, ctx.style);
    return kExitPass;
}

int hintCommand(CommandContext& ctx) {
    auto p = ctx.puzzleArg();
    if (!p) return ctx.report(p.error());
    const Puzzle& pz = **p;
    const Style& st = ctx.style;
    uint64_t n = 1;
    if (ctx.args.positionals.size() > 1) {
        const std::string& arg = ctx.args.positionals[1];
        char* end = nullptr;
        n = std::strtoull(arg.c_str(), &end, 10);
        if (arg.empty() || !std::isdigit(static_cast<unsigned char>(arg[0])) || *end || n < 1)
            return ctx.usage("the number of hints to show is a whole number from 1, not '" + arg +
                             "'");
    }
    if (pz.hints.empty()) {
        ctx.out << pz.slug << " has no hints\n";
        return kExitPass;
    }
    n = std::min<uint64_t>(n, pz.hints.size());
    for (uint64_t i = 0; i < n; ++i)
        ctx.out << st.bold("hint " + std::to_string(i + 1) + ": ") << pz.hints[i] << "\n";
    if (n < pz.hints.size())
        ctx.out << st.dim("(next: " + pz.command("hint", std::to_string(n + 1)) + ")") << "\n";
    else if (hasWalkthrough(pz))
        ctx.out << st.dim("(that was the last hint; the official solution, step by step: " +
                          pz.command("walkthrough") + ")")
                << "\n";
    else
        ctx.out << st.dim("(that was the last hint; the official solution is " + pz.solutionPath +
                          ", also in the app's Solution tab)")
                << "\n";
    return kExitPass;
}

} // namespace vkp::cli
