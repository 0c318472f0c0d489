// A pass over one kernel's SPIR-V that runs it as if its subgroups had more lanes than the device
// gives it (32 or 64 on lavapipe, whose subgroups have at most 16), so that a kernel that assumes
// a subgroup size is judged at the sizes GPUs have (NVIDIA's 32, AMD's wave64) on any machine.
//
// A virtual subgroup is `lanes` consecutive local invocation indices: whole real subgroups of
// `realLanes` lanes (lavapipe lays subgroups out so). The subgroup built-ins become what they are
// for that size (gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups, the
// masks). Each subgroup operation is done by the real subgroups first (a real reduction, scan,
// ballot, election or vote over the lanes that run it), and the real subgroups of a virtual one
// then meet in shared memory across one workgroup barrier; shuffles and broadcasts read the
// source lane's value there. The ballot-reading operations are computed on the lane.
//
// It relies on how lavapipe runs a workgroup (measured on Mesa 22 and 25): each real subgroup is a
// coroutine, resumed in order, and a barrier suspends it until every other one has suspended too
// or ended, so barriers are steps that all of a workgroup's subgroups take together, whichever
// barrier each is at. A loop runs as long as any lane of the real subgroup loops. An operation is
// two steps: the real subgroups that have lanes running it leave their partials with the
// operation's tag, read each other's in the next step, and clear their tags in the one after. A
// barrier() of the kernel waits until every thread of the workgroup has reached one or ended, the
// waiting real subgroups counting steps in lock-step (one that arrives takes the waiting ones'
// count), so that it keeps its meaning whatever number of steps the others took for their
// operations meanwhile (loops whose trips differ between subgroups). lavapipe runs a partial real
// subgroup's missing lanes through loops too: they leave the wait at once. A barrier that only some
// lanes of one real subgroup reach (undefined behaviour, a finding of the trace) would wait for
// ever: lavapipe's loop limit ends it. A real subgroup whose threads have all ended keeps taking
// steps until every thread of the workgroup has: Mesa 25 stops resuming a workgroup's real
// subgroups one round after any of them has ended (measured: an early `return` before two
// barriers leaves the others stopped at the second).
//
// Where it is not exact: the real subgroups of one virtual subgroup meet only when they run the
// operation in the same step. Mesa 22 runs a branch that only some lanes take masked, every real
// subgroup taking its barriers, so they stay in step through branches; Mesa 25 skips a branch
// that no lane of a real subgroup takes, and one that skipped an operation is then a step ahead of
// the others until the next barrier(): an operation there meets without them. On both, in a loop
// whose trips differ between the real subgroups of one virtual subgroup, the later trips of some
// meet without the others.
//
// Not emulated (an error names it): subgroup operations on values other than 32-bit scalars,
// vectors of up to four of them, and bools; rotations and partitions; one in a loop's header
// block; more than 255 of them. The shared memory the emulation takes comes on top of the
// kernel's: a kernel near the device's limit may then not be built.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/result.h"

namespace vkp {

// The subgroup sizes emulated beside the real ones (check/subgroup_sizes.h).
inline constexpr uint32_t kEmulatedSubgroupSizes[] = {32, 64};

// The kernel as if its subgroups had `lanes` lanes, for a device whose subgroups have
// `realLanes` (which divides both `lanes` and 32).
Result<std::vector<uint32_t>> emulateSubgroupSize(std::span<const uint32_t> spirv, uint32_t lanes,
                                                  uint32_t realLanes);

} // namespace vkp
