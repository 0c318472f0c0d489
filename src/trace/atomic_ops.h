// What an atomic did to its cell. The trace keeps an atomic's old value and its operand, not the
// operation, so the operation is read from the kernel's line (atomicAdd, atomicMax, ...). Used by
// the trace analysis (shared memory after each barrier round) and the views' replays.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "reference/buffer_data.h"
#include "trace/trace.h"

namespace vkp {

// What an atomic did to its cell: the trace keeps the old value and the operand, not the
// operation, so the operation is read from the kernel's line (atomicAdd, atomicMax, ...).
enum class AtomicOpKind { Add, Min, Max, And, Or, Xor, Exchange, CompSwap, Load, Store };
// Lines of `source` (1-based) holding exactly one kind of atomic call; other lines are Add.
std::map<uint32_t, AtomicOpKind> atomicOpsFromSource(const std::string& source);
// The value after the atomic, from the old value it saw and its traced operand (a
// compare-and-swap is traced with the value it left: its operand is the answer).
uint32_t applyAtomic(AtomicOpKind op, std::optional<ElementKind> type, uint32_t old,
                     uint32_t operand);
// What a write or an atomic left in its cell: a write its value; an atomic the operation of its
// line applied to the old value it saw.
uint32_t valueWritten(const Trace& trace, const TraceEvent& e,
                      const std::map<uint32_t, AtomicOpKind>& atomics);

} // namespace vkp
