// What a compile costs: every official solution (puzzles/*/solution.comp and solution/*.comp)
// compiled ROUNDS times after a warm-up; prints the median, 90th percentile and mean per compile.
//   vkp_compile_bench [PUZZLE_ROOT] [ROUNDS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "shader/compiler.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
    fs::path root = argc > 1 ? argv[1] : "puzzles";
    int rounds = argc > 2 ? std::atoi(argv[2]) : 20;
    std::vector<std::pair<std::string, std::string>> kernels;
    std::vector<fs::path> files;
    for (const auto& puzzle : fs::directory_iterator(root)) {
        if (fs::exists(puzzle.path() / "solution.comp")) files.push_back(puzzle.path() / "solution.comp");
        if (fs::is_directory(puzzle.path() / "solution"))
            for (const auto& f : fs::directory_iterator(puzzle.path() / "solution"))
                if (f.path().extension() == ".comp") files.push_back(f.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
        std::ifstream in(f);
        std::stringstream text;
        text << in.rdbuf();
        kernels.push_back({f.string(), text.str()});
    }
    vkp::Compiler compiler;
    compiler.warmUp();
    std::vector<double> ms;
    size_t failed = 0;
    for (int r = 0; r < rounds; ++r)
        for (const auto& [name, text] : kernels) {
            auto t = std::chrono::steady_clock::now();
            failed += !compiler.compile(text, name).ok();
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count());
        }
    if (ms.empty()) {
        std::fprintf(stderr, "no solutions under %s\n", root.c_str());
        return 1;
    }
    std::sort(ms.begin(), ms.end());
    double mean = 0;
    for (double m : ms) mean += m / ms.size();
    std::printf("%zu kernels x %d rounds: median %.3f ms, p90 %.3f ms, mean %.3f ms per compile (%zu failed)\n", kernels.size(), rounds,
                ms[ms.size() / 2], ms[ms.size() * 9 / 10], mean, failed);
    return failed ? 1 : 0;
}
