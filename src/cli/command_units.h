// The commands, one unit each: a function that runs its command over the shared context
// (cli/command_context.h) and returns the process exit status. The table of commands
// (cli/arguments.cpp) names the unit of each; the unit's file is NAME_command.cpp.
#pragma once

namespace vkp::cli {

struct CommandContext;

int listCommand(CommandContext& ctx);        // the puzzles, by track (puzzles_command.cpp)
int showCommand(CommandContext& ctx);        // a puzzle's statement, buffers and cases (ditto)
int hintCommand(CommandContext& ctx);        // a puzzle's first N hints (ditto)
int devicesCommand(CommandContext& ctx);     // the Vulkan devices and their limits
int newCommand(CommandContext& ctx);         // a working puzzle folder to start from
int packCommand(CommandContext& ctx);        // `pack check DIR`: the author's lint of a pack
int checkCommand(CommandContext& ctx);       // a kernel against every case; --all: every puzzle
int watchCommand(CommandContext& ctx);       // check again at every save
int runCaseCommand(CommandContext& ctx);     // `run`: one case's buffers in full and its printf
int traceCommand(CommandContext& ctx);       // one case traced: what every thread read and wrote
int profileCommand(CommandContext& ctx);     // one case traced: the efficiency lens's table
int walkthroughCommand(CommandContext& ctx); // the official solution explained step by step
int benchCommand(CommandContext& ctx);       // a kernel timed at a large N
int gradeCommand(CommandContext& ctx);       // a class's submissions, each checked and scored
int exportCommand(CommandContext& ctx);      // a case as a case file (.vkpcase)
int openCommand(CommandContext& ctx);        // a case file's case, as trace (trace_command.cpp)
int helpCommand(CommandContext& ctx);        // the help text (commands.cpp)

} // namespace vkp::cli
