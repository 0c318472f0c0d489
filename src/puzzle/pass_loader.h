// Reading a puzzle's [[kernels]], [[passes]] and [[pitfalls]] (internal to the loader).
#pragma once

#include "puzzle/puzzle.h"
#include "puzzle/toml_reader.h"

namespace vkp {

// The puzzle's kernels (default: one that binds every buffer) and passes; after buffers,
// constants and cases are read, so every case's dispatches can be checked. Throws an Error.
void parseKernelsAndPasses(const Reader& r, const toml::table& root, Puzzle& p);
// [[pitfalls]]: known wrong answers of an output, with what to tell the learner.
void parsePitfalls(const Reader& r, const toml::table& root, Puzzle& p);

} // namespace vkp
