// vkpuzzles: with no command the desktop app, otherwise the command-line front end (list, show,
// check, run, devices); with --worker the worker process that runs learners' kernels, and with
// --vkp-helper a helper process (Windows starts them so; Linux forks them). main is the only place
// that knows both front ends (app and cli never include each other).
#include <iostream>
#include <string>
#include <vector>

#include "app/app_args.h"
#include "base/helper_process.h"
#include "base/os.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/terminal_text.h"
#include "worker/worker_runner.h"

int main(int argc, char** argv) {
    std::vector<std::string> arguments = vkp::os::arguments(argc, argv); // UTF-8 on every system
    if (auto helped = vkp::runHelperIfAsked(arguments)) return *helped;
    std::vector<char*> utf8;
    for (std::string& a : arguments)
        utf8.push_back(a.data());
    utf8.push_back(nullptr);
    argc = static_cast<int>(arguments.size());
    argv = utf8.data();
    // The isolated worker process that runs learners' kernels (started by the app and the CLI).
    if (argc > 1 && std::string(argv[1]) == "--worker") return vkp::worker::workerMain(argc, argv);
    vkp::os::useUtf8Console();
    auto args = vkp::cli::parseArgs(argc, argv);
    if (!args) {
        std::cerr << "vkpuzzles: " << vkp::cli::terminalText(args.error().message, false)
                  << "\n"; // it quotes the arguments
        return vkp::cli::kExitUsage;
    }
    if (vkp::app::wantsApp(*args)) return vkp::app::runAppFromArgs(*args, std::cerr);
    return vkp::cli::runCommand(*args, std::cout, std::cerr);
}
