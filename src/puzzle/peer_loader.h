// [[peers]] in puzzle.toml: experts' times at the puzzle's benchmark (puzzle/puzzle.h BenchPeer).
#pragma once

#include "puzzle/puzzle.h"
#include "puzzle/toml_reader.h"

namespace vkp {

// `n` (a benchmark's element count) as an integer or as "2^K", the way `vkpuzzles bench --n` is
// written, from 1 to 2^40; else the reader fails at the node, naming `key`.
uint64_t readBenchCount(const Reader& r, const toml::node* n, const std::string& key);

void parsePeers(const Reader& r, const toml::table& root, Puzzle& p);

} // namespace vkp
