// [[peers]] in puzzle.toml: experts' times at the puzzle's benchmark (puzzle/puzzle.h BenchPeer).
#pragma once

#include "puzzle/puzzle.h"
#include "puzzle/toml_reader.h"

namespace vkp {

void parsePeers(const Reader& r, const toml::table& root, Puzzle& p);

} // namespace vkp
