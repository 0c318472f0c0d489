#version 450
// Pass 1 of 3: every workgroup adds up its tile of WG * ITEMS elements of `a` and writes the
// total to sums[tile]. It reads `a` once and writes nothing else: no scan yet.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;  // elements per thread in a tile

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 2) writeonly buffer Sums { uint sums[]; };

shared uint subgroupTotals[gl_WorkGroupSize.x];  // one cell per subgroup (never more than WG)

void main() {
    uint n = uint(a.length());
    uint tile = gl_WorkGroupID.x;
    uint wg = gl_WorkGroupSize.x;
    uint t = gl_LocalInvocationID.x;
    // Subgroups: see scan-subgroup. Count them rounding up (lavapipe's gl_NumSubgroups rounds
    // down when the last one is partly filled).
    uint numSubgroups = (wg + gl_SubgroupSize - 1u) / gl_SubgroupSize;

    // 1. A sum does not care about order, so take the simplest coalesced layout: in round k,
    //    thread t adds element k * WG + t of the tile. The loop has a fixed trip count (ITEMS is
    //    a specialization constant), so the compiler can unroll it and issue all the loads
    //    before the additions need them.
    uint first = tile * wg * ITEMS + t;
    uint sum = 0u;
    for (uint k = 0u; k < ITEMS; ++k) {
        uint i = first + k * wg;
        // A select, not an `if`: subgroupAdd below needs every lane there, and lanes that took
        // different sides of an `if` are not promised to meet again first (scan-decoupled
        // explains why); past the end, read a cell that exists and drop it.
        uint x = a[min(i, n - 1u)];
        sum += i < n ? x : 0u;
    }

    // 2. Add up the threads: each subgroup in hardware (subgroupAdd), then the subgroups'
    //    totals through shared memory. One barrier, and one thread writes the tile's total.
    uint total = subgroupAdd(sum);
    if (subgroupElect()) {
        subgroupTotals[gl_SubgroupID] = total;
    }
    barrier();
    if (t == 0u) {
        uint tileTotal = 0u;
        for (uint s = 0u; s < numSubgroups; ++s) {
            tileTotal += subgroupTotals[s];
        }
        sums[tile] = tileTotal;
    }
}
