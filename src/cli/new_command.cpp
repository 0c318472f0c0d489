// `vkpuzzles new SLUG [--multi-pass] [--dir DIR]`: writes DIR/NN-SLUG (DIR: --dir, else the
// current folder; NN: one past the highest number of DIR's numbered folders) from
// authoring/puzzle_template.h, a working puzzle folder to start from. Refuses a bad slug and a
// folder that exists, or a puzzle of that slug in DIR.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <utility>
#include <vector>

#include "authoring/puzzle_template.h"
#include "base/os.h"
#include "cli/command_context.h"
#include "puzzle/puzzle.h"

namespace fs = std::filesystem;

namespace vkp::cli {
namespace {

// The number of a folder named "NN-slug" (0 when it has none), and its slug.
int folderNumber(const std::string& name, std::string& slug) {
    size_t dash = name.find('-');
    slug = name;
    if (dash == 0 || dash == std::string::npos || dash > 9) return 0;
    for (size_t i = 0; i < dash; ++i)
        if (name[i] < '0' || name[i] > '9') return 0;
    slug = name.substr(dash + 1);
    return std::stoi(name.substr(0, dash));
}

std::string twoDigits(int n) {
    return (n < 10 ? "0" : "") + std::to_string(n);
}

bool writeFile(const fs::path& path, const std::string& text) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream f(path, std::ios::binary);
    f << text;
    return static_cast<bool>(f.flush());
}

} // namespace

int newCommand(CommandContext& ctx) {
    const Args& args = ctx.args;
    std::ostream& out = ctx.out;
    std::ostream& err = ctx.err;
    auto fail = [&](const std::string& message) {
        err << "vkpuzzles new: " << message << "\n";
        return kExitUsage;
    };
    if (args.positionals.size() != 1)
        return fail("give one slug, the puzzle's name: vkpuzzles new reverse-double (see "
                    "vkpuzzles --help)");
    const std::string& slug = args.positionals[0];
    if (auto bad = slugError(slug)) return fail(*bad);
    fs::path dir = os::toPath(args.value("dir").value_or("."));
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return fail("'" + os::pathText(dir) + "' is not a folder (--dir names the pack's folder)");
    int highest = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
        std::string other;
        int n = folderNumber(os::pathText(e.path().filename()), other);
        if (other == slug)
            return fail("'" + os::pathText(dir / e.path().filename()) +
                        "' already exists: a puzzle of that slug is there (nothing was written)");
        if (e.is_directory(ec) && n > highest) highest = n;
    }
    if (ec) return fail("cannot read the folder '" + os::pathText(dir) + "': " + ec.message());
    fs::path folder = dir / os::toPath(twoDigits(highest + 1) + "-" + slug);
    if (fs::exists(folder, ec))
        return fail("'" + os::pathText(folder) + "' already exists (nothing was written)");
    for (const TemplateFile& f : puzzleTemplate(slug, highest + 1, args.has("multi-pass")))
        if (!writeFile(folder / f.path, f.text))
            return fail("could not write '" + os::pathText(folder / f.path) + "'");
    std::string pack = os::shellWord(os::pathText(dir));
    std::vector<std::pair<std::string, std::string>> next = {
        {"vkpuzzles --puzzles " + pack + " check " + slug + " --solution", "passes"},
        {"vkpuzzles --puzzles " + pack + " check " + slug + " --starter", "fails: the exercise"},
        {"vkpuzzles pack check " + pack, "can a wrong kernel pass your cases?"}};
    size_t width = 0;
    for (const auto& [command, what] : next)
        width = std::max(width, command.size());
    out << "Wrote " << os::pathText(folder) << "/: puzzle.toml, "
        << (args.has("multi-pass") ? "starter/ and solution/ (one file per kernel)"
                                   : "starter.comp and solution.comp")
        << ".\nA working puzzle (reverse and double an array) to change into yours:\n";
    for (const auto& [command, what] : next)
        out << "  " << command << std::string(width - command.size() + 3, ' ') << what << "\n";
    out << "The format and the next steps: docs/puzzle-format.md, \"Writing a pack for your "
           "class\".\n";
    return kExitPass;
}

} // namespace vkp::cli
