#include "trace/atomic_ops.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace vkp {
namespace {

float asFloat(uint32_t w) {
    float f;
    std::memcpy(&f, &w, 4);
    return f;
}
uint32_t asWord(float f) {
    uint32_t w;
    std::memcpy(&w, &f, 4);
    return w;
}

} // namespace

std::map<uint32_t, AtomicOpKind> atomicOpsFromSource(const std::string& source) {
    static const std::pair<const char*, AtomicOpKind> kCalls[] = {
        {"atomicAdd", AtomicOpKind::Add},
        {"atomicMin", AtomicOpKind::Min},
        {"atomicMax", AtomicOpKind::Max},
        {"atomicAnd", AtomicOpKind::And},
        {"atomicOr", AtomicOpKind::Or},
        {"atomicXor", AtomicOpKind::Xor},
        {"atomicExchange", AtomicOpKind::Exchange},
        {"atomicCompSwap", AtomicOpKind::CompSwap},
        {"atomicLoad", AtomicOpKind::Load},
        {"atomicStore", AtomicOpKind::Store},
    };
    std::map<uint32_t, AtomicOpKind> out;
    uint32_t line = 1;
    size_t start = 0;
    while (start <= source.size()) {
        size_t end = source.find('\n', start);
        std::string text =
            source.substr(start, end == std::string::npos ? std::string::npos : end - start);
        std::set<AtomicOpKind> kinds;
        for (auto [name, kind] : kCalls) {
            for (size_t at = text.find(name); at != std::string::npos;
                 at = text.find(name, at + 1)) {
                size_t after = at + std::strlen(name);
                while (after < text.size() && text[after] == ' ')
                    ++after;
                if (after < text.size() && text[after] == '(') kinds.insert(kind);
            }
        }
        if (kinds.size() == 1) out[line] = *kinds.begin();
        if (end == std::string::npos) break;
        start = end + 1;
        ++line;
    }
    return out;
}

uint32_t applyAtomic(AtomicOpKind op, std::optional<ElementKind> type, uint32_t old,
                     uint32_t operand) {
    bool isFloat = type == ElementKind::Float;
    bool isSigned = type == ElementKind::Int;
    switch (op) {
    case AtomicOpKind::Add:
        return isFloat ? asWord(asFloat(old) + asFloat(operand)) : old + operand;
    case AtomicOpKind::Min:
        if (isFloat) return asWord(std::min(asFloat(old), asFloat(operand)));
        return isSigned ? uint32_t(std::min(int32_t(old), int32_t(operand)))
                        : std::min(old, operand);
    case AtomicOpKind::Max:
        if (isFloat) return asWord(std::max(asFloat(old), asFloat(operand)));
        return isSigned ? uint32_t(std::max(int32_t(old), int32_t(operand)))
                        : std::max(old, operand);
    case AtomicOpKind::And:
        return old & operand;
    case AtomicOpKind::Or:
        return old | operand;
    case AtomicOpKind::Xor:
        return old ^ operand;
    case AtomicOpKind::Exchange:
        return operand;
    case AtomicOpKind::Store:
        return old; // the traced value of an atomic store is what it stored
    case AtomicOpKind::Load:
        return old;
    case AtomicOpKind::CompSwap:
        return operand; // traced as the value it left (the old one where the compare failed)
    }
    return old;
}

uint32_t valueWritten(const Trace& trace, const TraceEvent& e,
                      const std::map<uint32_t, AtomicOpKind>& atomics) {
    if (e.kind != TraceEventKind::Atomic) return e.value;
    auto op = atomics.find(e.line);
    // The result follows from the value the atomic itself saw (its old value), not from a
    // replay: in the real run other threads' atomics may have come first.
    if (op != atomics.end() && op->second == AtomicOpKind::Store) return e.value;
    std::optional<ElementKind> type = e.variable < trace.variables.size()
                                          ? trace.variables[e.variable].decl.elementType
                                          : std::nullopt;
    return applyAtomic(op == atomics.end() ? AtomicOpKind::Add : op->second, type, e.value,
                       e.extra);
}

} // namespace vkp
