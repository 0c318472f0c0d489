#version 450
// Pass 3 of 3: every workgroup scans its tile of WG * ITEMS elements of `a` again, this time
// starting from sums[tile] (everything before the tile, from passes 1 and 2), and writes the
// finished prefix sums to `result`. It reads `a` once and writes `result` once.
//
// Subgroup operations (built-in scans across the threads of a subgroup, see the puzzle
// scan-subgroup) do the work between threads, so one barrier per tile is enough.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;        // elements per thread
layout(constant_id = 4) const uint SHARED_SIZE = 1;  // = WG: room for one cell per subgroup

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { uint result[]; };
layout(set = 0, binding = 2) readonly buffer Sums { uint sums[]; };

shared uint subgroupTotals[SHARED_SIZE];  // the total of each subgroup's stretch of the tile

void main() {
    uint n = uint(a.length());
    uint tile = gl_WorkGroupID.x;
    uint wg = gl_WorkGroupSize.x;

    // Who am I? Subgroups are filled one after the other; the last one may be partly filled
    // (4 threads in subgroups of 8), so count its lanes. Never assume a subgroup size: it is 8
    // on lavapipe, 32 on NVIDIA, 64 on some AMD GPUs.
    uint size = gl_SubgroupSize;
    uint sg = gl_SubgroupID;
    uint lane = gl_SubgroupInvocationID;
    uint lanes = min(size, wg - sg * size);          // threads in my subgroup

    // The layout (as in scan-blocks). Subgroup s owns a stretch of lanes * ITEMS consecutive
    // elements of the tile, starting at s * size * ITEMS. It walks its stretch in ITEMS rounds;
    // in round k its lanes take `lanes` consecutive elements, lane j the element k * lanes + j
    // of the stretch:
    //     subgroup 0: round 0 [0 .. 31], round 1 [32 .. 63], ...    (subgroups of 32)
    //     subgroup 1: round 0 [32*ITEMS .. 32*ITEMS + 31], ...
    // Neighbouring lanes touch neighbouring words, so every load and store of a subgroup is one
    // contiguous piece of memory (coalesced), and the scan order within the stretch is simply
    // round by round, lane by lane.
    uint first = tile * wg * ITEMS + sg * size * ITEMS + lane;  // my element in round 0

    // 1. Load all ITEMS elements into registers before using any: the loads are all in flight
    //    at once instead of one after the other. Past the end of `a`: 0, which changes no sum.
    //    The tile's starting value comes along: the same cell for every thread of the tile.
    uint v[ITEMS];
    for (uint k = 0u; k < ITEMS; ++k) {
        uint i = first + k * lanes;
        v[k] = i < n ? a[i] : 0u;
    }
    uint tileStart = sums[tile];

    // 2. Scan my subgroup's stretch, round by round. subgroupInclusiveAdd scans the round
    //    across the lanes; `carry` (the same in every lane) is the sum of the earlier rounds.
    //    Afterwards v[k] holds the scan of the stretch up to my element of round k.
    uint carry = 0u;
    for (uint k = 0u; k < ITEMS; ++k) {
        uint roundTotal = subgroupAdd(v[k]);
        v[k] = carry + subgroupInclusiveAdd(v[k]);
        carry += roundTotal;
    }

    // 3. What comes before my stretch: the tiles before mine (tileStart) and the subgroups
    //    before mine in this tile. One lane per subgroup publishes its stretch's total; one
    //    barrier; then each thread adds up the cells before its subgroup.
    if (subgroupElect()) {
        subgroupTotals[sg] = carry;
    }
    barrier();
    uint before = tileStart;
    for (uint s = 0u; s < sg; ++s) {
        before += subgroupTotals[s];
    }

    // 4. Write my elements, in the same coalesced order as they were read.
    for (uint k = 0u; k < ITEMS; ++k) {
        uint i = first + k * lanes;
        if (i < n) {
            result[i] = before + v[k];
        }
    }
}
