// vkpuzzles: the command-line front end (list, show, check, run, devices).
#include <iostream>

#include "cli/args.h"
#include "cli/commands.h"

int main(int argc, char** argv) {
    auto args = vkp::cli::parseArgs(argc, argv);
    if (!args) {
        std::cerr << "vkpuzzles: " << args.error().message << "\n";
        return vkp::cli::kExitUsage;
    }
    return vkp::cli::runCommand(*args, std::cout, std::cerr);
}
