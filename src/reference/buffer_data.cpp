#include "reference/buffer_data.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>

namespace vkp {

const char* elementKindName(ElementKind kind) {
    switch (kind) {
    case ElementKind::Float:
        return "float";
    case ElementKind::Int:
        return "int";
    case ElementKind::Uint:
        return "uint";
    }
    return "?";
}

std::string vectorKindName(ElementKind kind, uint32_t width) {
    if (width <= 1) return elementKindName(kind);
    const char* prefix = kind == ElementKind::Int ? "i" : kind == ElementKind::Uint ? "u" : "";
    return prefix + std::string("vec") + std::to_string(width);
}

uint64_t Shape::count() const {
    uint64_t n = dims.empty() ? 0 : 1;
    for (uint64_t d : dims)
        n *= d;
    return n;
}

std::string Shape::str() const {
    std::string s = "[";
    for (size_t i = 0; i < dims.size(); ++i)
        s += (i ? ", " : "") + std::to_string(dims[i]);
    return s + "]";
}

uint32_t toWord(ElementKind type, double value) {
    if (type == ElementKind::Float) return std::bit_cast<uint32_t>(static_cast<float>(value));
    // Wrap like the GPU's 32-bit integer arithmetic does.
    double wrapped = std::fmod(std::trunc(value), 4294967296.0);
    if (wrapped < 0) wrapped += 4294967296.0;
    return static_cast<uint32_t>(wrapped);
}

std::optional<std::string> valueDoesNotFit(double value, ElementKind type) {
    auto text = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.10g", v);
        return std::string(buf);
    };
    if (type == ElementKind::Float) { // nan and inf written as such are meant; 1e39 is not
        if (std::isfinite(value) && std::fabs(value) > 3.4028234663852886e38)
            return text(value) + " is past a float's range (it would be inf)";
        return std::nullopt;
    }
    if (!std::isfinite(value) || std::trunc(value) != value)
        return text(value) + " is not a whole number";
    double lo = type == ElementKind::Int ? -2147483648.0 : 0.0;
    double hi = type == ElementKind::Int ? 2147483647.0 : 4294967295.0;
    if (value < lo) return text(value) + " is below " + text(lo);
    if (value > hi) return text(value) + " is past " + text(hi);
    return std::nullopt;
}

double fromWord(ElementKind type, uint32_t word) {
    switch (type) {
    case ElementKind::Float:
        return std::bit_cast<float>(word);
    case ElementKind::Int:
        return static_cast<int32_t>(word);
    case ElementKind::Uint:
        return word;
    }
    return 0;
}

BufferData BufferData::zeros(ElementKind type, Shape shape) {
    BufferData data{type, std::move(shape), {}};
    data.words.assign(data.shape.count(), 0u); // 0.0f is all zero bits too
    return data;
}

double BufferData::get(uint64_t i) const {
    return fromWord(type, words[i]);
}

void BufferData::set(uint64_t i, double value) {
    words[i] = toWord(type, value);
}

uint32_t poisonWord(ElementKind type) {
    return type == ElementKind::Float ? 0x7FDEAD00u : 0xDEADBEEFu;
}

BufferData BufferData::poisoned(ElementKind type, Shape shape) {
    BufferData b = zeros(type, std::move(shape));
    std::fill(b.words.begin(), b.words.end(), poisonWord(type));
    return b;
}

std::string BufferData::format(uint64_t i) const {
    return format(i, 6);
}

std::string BufferData::format(uint64_t i, int digits) const {
    if (words[i] == poisonWord(type)) return "unwritten";
    if (type != ElementKind::Float) return std::to_string(static_cast<int64_t>(get(i)));
    float v = std::bit_cast<float>(words[i]);
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

std::string expectedGotText(const BufferData& expected, const BufferData& actual, uint64_t i) {
    bool alike = expected.words[i] != actual.words[i] && expected.format(i) == actual.format(i);
    int digits = alike ? 9 : 6;
    return "expected " + expected.format(i, digits) + ", got " + actual.format(i, digits);
}

} // namespace vkp
