// vkpuzzles: with no command the desktop app, otherwise the command-line front end (list, show,
// check, run, devices); with --worker the worker process that runs learners' kernels. main is the
// only place that knows both front ends (app and cli never include each other).
#include <iostream>

#include "app/app_args.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/terminal_text.h"
#include "worker/worker_runner.h"

int main(int argc, char** argv) {
    // The isolated worker process that runs learners' kernels (started by the app and the CLI).
    if (argc > 1 && std::string(argv[1]) == "--worker") return vkp::worker::workerMain(argc, argv);
    auto args = vkp::cli::parseArgs(argc, argv);
    if (!args) {
        std::cerr << "vkpuzzles: " << vkp::cli::terminalText(args.error().message, false)
                  << "\n"; // it quotes the arguments
        return vkp::cli::kExitUsage;
    }
    if (vkp::app::wantsApp(*args)) return vkp::app::runAppFromArgs(*args, std::cerr);
    return vkp::cli::runCommand(*args, std::cout, std::cerr);
}
