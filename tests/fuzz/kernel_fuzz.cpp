// libFuzzer target: a kernel's text through the compile stage every front end takes
// (check/compile_stage.h, traced as the app checks): glslang in the compiler's helper process,
// its messages, reflection, the interface check, instrumentation and SPIR-V validation. Whatever
// the text, the answer is messages on the kernel - a crash or a hang of glslang included - never
// a crash of this process. Seeded with the official solutions (run.sh).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "check/compile_stage.h"
#include "puzzle/puzzle_loader.h"
#include "shader/compiler.h"

namespace {

const std::vector<vkp::Puzzle>& puzzles() {
    static const std::vector<vkp::Puzzle> all = [] {
        vkp::PuzzleSet set = vkp::loadPuzzleSet(VKPUZZLES_SOURCE_DIR "/puzzles");
        std::vector<vkp::Puzzle> single;
        for (vkp::Puzzle& p : set.puzzles)
            if (p.kernels.size() <= 1) single.push_back(std::move(p));
        if (single.empty()) std::abort(); // the fuzzer is run from a checkout with its puzzles
        return single;
    }();
    return all;
}

int lineCount(const std::string& text) {
    int n = 1;
    for (char c : text)
        n += c == '\n';
    return n;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static vkp::Compiler compiler;
    std::string text(reinterpret_cast<const char*>(data), size);
    // Checked against one of the puzzles, the same for the same input.
    const vkp::Puzzle& puzzle = puzzles()[size % puzzles().size()];
    vkp::CheckOptions options;
    options.trace = true;
    vkp::CheckReport r;
    auto kernels = compileProgram(compiler, puzzle, {{"kernel", text, "fuzz.comp"}}, options, r);
    // A kernel that does not get through is told why, on a line of its own text (or on none).
    if (r.reached == vkp::StageKind::Compile && r.diagnostics.empty() && !r.error) __builtin_trap();
    if (r.reached == vkp::StageKind::Pipeline && !r.error && kernels.size() != 1) __builtin_trap();
    int lines = lineCount(text);
    for (const vkp::Diagnostic& d : r.diagnostics) {
        if (d.line < 0 || d.line > lines + 1 || d.message.empty()) __builtin_trap();
        if (r.compilerCrashed && d.message.find("the compiler") == std::string::npos)
            __builtin_trap();
    }
    return 0;
}
