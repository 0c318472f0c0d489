// The command line's entry (cli/commands.h): the terminal filter on both streams, then the command
// run through the table of commands (cli/arguments.h), each a unit over the shared context
// (cli/command_context.h, cli/command_units.h).
#include "cli/commands.h"

#include "cli/arguments.h"
#include "cli/command_context.h"
#include "cli/terminal_text.h"

#ifndef VKPUZZLES_VERSION
#define VKPUZZLES_VERSION "0"
#endif

namespace vkp::cli {
namespace {

// --version and --help go with any command; a command's unit runs once its words are counted and,
// where it needs them, the puzzles are loaded.
int dispatch(CommandContext& ctx) {
    const Args& a = ctx.args;
    if (a.has("version")) return (ctx.out << "vkpuzzles " << VKPUZZLES_VERSION << "\n", kExitPass);
    if (a.has("help") || a.command == "help" || a.command.empty()) return helpCommand(ctx);
    const CommandSpec* spec = findCommand(a.command);
    if (!spec) return ctx.usage("unknown command '" + a.command + "'"); // parseArgs refuses it
    if (spec->takes)
        if (auto extra = ctx.extraWords(*spec->takes)) {
            ctx.err << "vkpuzzles: " << *extra << "\n";
            return kExitUsage;
        }
    if (spec->loadsPuzzles)
        if (int s = ctx.loadPuzzles(); s != kExitPass) return s;
    return spec->run(ctx);
}

} // namespace

int helpCommand(CommandContext& ctx) {
    ctx.out << helpText();
    return kExitPass;
}

int runCommand(const Args& args, std::ostream& out, std::ostream& err) {
    // Everything printed passes the terminal filter: kernels, puzzle files and file names are
    // not trusted to hold only printable text.
    bool color = Style::detect(args.value("color").value_or("auto"));
    TerminalFilter outFilter(out.rdbuf(), color), errFilter(err.rdbuf(), color);
    std::ostream safeOut(&outFilter), safeErr(&errFilter);
    int code = kExitPass;
    { // the engines close before what is left of the output is flushed
        CommandContext ctx(args, safeOut, safeErr, err);
        code = dispatch(ctx);
    }
    safeOut.flush();
    safeErr.flush();
    return code;
}

} // namespace vkp::cli
