// Typed buffer contents as the GPU sees them: 32-bit words plus an element type and a shape.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vkp {

enum class ElementKind { Float, Int, Uint };

const char* elementKindName(ElementKind kind); // "float", "int", "uint"
// GLSL's name for `width` of them together: "vec4", "ivec2", "uvec4"; the scalar's for width 1.
std::string vectorKindName(ElementKind kind, uint32_t width);

// 1D [n] or 2D [rows, cols], row-major.
struct Shape {
    std::vector<uint64_t> dims; // 1 or 2 entries

    uint64_t count() const;
    uint64_t rows() const { return dims.size() == 2 ? dims[0] : 1; }
    uint64_t cols() const { return dims.empty() ? 0 : dims.back(); }
    bool operator==(const Shape&) const = default;
    std::string str() const; // "[6]" or "[3, 4]"
};

struct BufferData {
    ElementKind type = ElementKind::Float;
    Shape shape;
    std::vector<uint32_t> words; // shape.count() elements, each the element's bit pattern

    static BufferData zeros(ElementKind type, Shape shape);
    // What an output holds before a kernel runs, unless its puzzle says it starts as zeros:
    // poisonWord in every cell, so a cell the kernel never writes is wrong whatever it expects.
    static BufferData poisoned(ElementKind type, Shape shape);
    double get(uint64_t i) const;       // the value as a double (exact for 32-bit ints)
    void set(uint64_t i, double value); // converts to the element type (ints wrap)
    // "10", "-3", "1.5" as a learner reads it; "unwritten" for the poison an output started with
    std::string format(uint64_t i) const;
    // format with `digits` significant digits for a float (6 in format).
    std::string format(uint64_t i, int digits) const;
};

// "expected 16777232, got 16777216" for cell i: floats with 6 significant digits, or 9 (which
// tell any two floats apart) where two different values would read alike at 6.
std::string expectedGotText(const BufferData& expected, const BufferData& actual, uint64_t i);

// The poison of an output's cells (BufferData::poisoned): a quiet NaN with a payload for floats
// (arithmetic on it stays NaN), 0xDEADBEEF for ints.
uint32_t poisonWord(ElementKind type);

// Converts a double to the bit pattern of an element of that kind (ints wrap modulo 2^32).
uint32_t toWord(ElementKind type, double value);
// Why `value` is no value of `type` ("4294967296 is past 4294967295", "4.9 is not a whole
// number", "1e+39 is past a float's range"), or nothing when it is one (a float may be nan or
// inf, written as such).
std::optional<std::string> valueDoesNotFit(double value, ElementKind type);
double fromWord(ElementKind type, uint32_t word);

} // namespace vkp
