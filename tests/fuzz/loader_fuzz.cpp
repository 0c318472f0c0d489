// libFuzzer target: the puzzle loader on arbitrary bytes must return a value or an error, never
// crash, hang or read out of bounds; a loaded puzzle's cases must materialize.
#include <cstddef>
#include <cstdint>
#include <string>

#include "puzzle/puzzle.h"
#include "puzzle/puzzle_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    auto p = vkp::parsePuzzle(text, "fuzz.toml", "/tmp/01-fuzz");
    if (!p) return 0;
    for (size_t i = 0; i < p->cases.size(); ++i) {
        uint64_t elements = 0;
        for (const auto& d : p->cases[i].data)
            elements += d ? d->shape.count() : 0;
        if (elements > (1u << 20)) continue; // valid but big: memory, not robustness
        auto c = vkp::materializeCase(*p, i);
        if (!c) __builtin_trap(); // a puzzle that loads must materialize
    }
    return 0;
}
