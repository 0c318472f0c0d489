// What the data-driven session tests share: one compiler, one device, the puzzles, and the
// lists of files their parameterised tests run over.
#pragma once

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/context.h"
#include "puzzle/puzzle_loader.h"
#include "shader/compiler.h"
#include "support/test_env.h"

namespace vkp::test {

struct Engines {
    Compiler compiler;
    std::unique_ptr<GpuContext> gpu; // null when no device could be opened (tests then fail)
    PuzzleSet set;
};

// Created once per test binary; the validation layer is on when installed.
inline Engines& engines() {
    static Engines* e = [] {
        auto* x = new Engines;
        auto ctx = GpuContext::create(deviceOptions(/*validation=*/true));
        if (ctx) x->gpu = std::move(*ctx);
        x->set = loadPuzzleSet(puzzleDir());
        return x;
    }();
    return *e;
}

// Puzzle folder names under puzzles/, sorted.
// A built-in puzzle by name; a missing one throws (the test fails naming it).
inline const Puzzle& puzzleNamed(const std::string& name) {
    auto p = engines().set.find(name);
    if (!p) throw std::runtime_error("no puzzle " + name);
    return **p;
}

// Whether a puzzle's kernels are for every device and compiler the tests run on: not one that
// uses cooperative matrices, which lavapipe lacks, Debian 12's glslang cannot compile and the
// trace does not follow. Tests over every bundled kernel skip the others
// (tests/check/cooperative_matrix_test.cpp is about them).
inline bool forEveryDevice(const Puzzle& p) {
    return !(p.needs.shader & kCooperativeMatrix);
}

inline std::vector<std::string> puzzleFolders() {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(puzzleDir()))
        if (std::filesystem::exists(e.path() / "puzzle.toml"))
            out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// The .comp files of a folder under tests/data, sorted.
inline std::vector<std::string> kernelFiles(const std::string& dataFolder) {
    std::vector<std::string> out;
    for (const auto& e :
         std::filesystem::directory_iterator(sourceDir() + "/tests/data/" + dataFolder))
        if (e.path().extension() == ".comp") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

// A gtest parameter name from a path or folder name ("01-map" -> "01_map").
inline std::string paramName(const std::string& text) {
    std::string s = std::filesystem::path(text).stem().string();
    std::replace(s.begin(), s.end(), '-', '_');
    return s;
}

} // namespace vkp::test
