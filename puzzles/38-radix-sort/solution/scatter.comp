#version 450
// Pass 3 of 3, every lap: each workgroup moves the keys of its tile to their places in
// `sorted`, STABLY: keys with the same digit keep their order. Thread e (in lane order) owns
// ITEMS consecutive keys of the tile, so "before me in the tile" is "in a thread before me, or
// earlier in my own run". A key of digit d goes to
//     counts[d * tiles + tile]          (after pass 2: keys of smaller digits + this digit in
//                                        earlier tiles)
//   + keys of digit d in threads before mine in this tile
//   + keys of digit d earlier in my own run.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;  // keys per thread in a tile

layout(set = 0, binding = 0) readonly buffer Keys { uint keys[]; };
layout(set = 0, binding = 1) writeonly buffer Sorted { uint sorted[]; };
layout(set = 0, binding = 2) readonly buffer Counts { uint counts[]; };

layout(push_constant) uniform Lap { uint shift; };

// Per digit, the total of each subgroup, then what comes before each subgroup: 16 rows of up to
// WG subgroups.
shared uint subgroupTotals[16u * gl_WorkGroupSize.x];

void main() {
    uint n = uint(keys.length());
    uint tiles = uint(counts.length()) / 16u;
    uint tile = gl_WorkGroupID.x;
    uint wg = gl_WorkGroupSize.x;
    uint size = gl_SubgroupSize;
    uint sg = gl_SubgroupID;
    uint numSubgroups = (wg + size - 1u) / size;  // not gl_NumSubgroups: lavapipe rounds down
    uint e = sg * size + gl_SubgroupInvocationID;  // my place in lane order (see scan-subgroup)

    // 1. My run of ITEMS consecutive keys, read once, and how many of each digit it holds.
    uint first = tile * wg * ITEMS + e * ITEMS;
    uint mine[ITEMS];
    uint count[16] = uint[16](0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
    for (uint j = 0u; j < ITEMS; ++j) {
        uint i = first + j;
        mine[j] = i < n ? keys[i] : 0u;
        if (i < n) {
            count[(mine[j] >> shift) & 15u] += 1u;
        }
    }

    // 2. For each digit, where my first key of it goes: the workgroup scan of scan-subgroup,
    //    for 16 counters at once. Inside my subgroup in hardware...
    uint before[16];
    for (uint d = 0u; d < 16u; ++d) {
        before[d] = subgroupExclusiveAdd(count[d]);
        uint total = subgroupAdd(count[d]);
        if (subgroupElect()) {
            subgroupTotals[d * wg + sg] = total;
        }
    }
    barrier();
    //    ... then one thread per digit turns that digit's row of subgroup totals into its
    //    exclusive scan, starting from counts[d * tiles + tile]: everything before the tile's
    //    keys of digit d. (A workgroup of fewer than 16 threads takes several digits each.)
    for (uint d = gl_LocalInvocationID.x; d < 16u; d += wg) {
        uint running = counts[d * tiles + tile];
        for (uint s = 0u; s < numSubgroups; ++s) {
            uint v = subgroupTotals[d * wg + s];
            subgroupTotals[d * wg + s] = running;
            running += v;
        }
    }
    barrier();
    for (uint d = 0u; d < 16u; ++d) {
        before[d] += subgroupTotals[d * wg + sg];
    }

    // 3. Place my keys in order: each one after everything that goes before it, then one more
    //    of its digit is before the next key of that digit in my run.
    for (uint j = 0u; j < ITEMS; ++j) {
        if (first + j < n) {
            uint d = (mine[j] >> shift) & 15u;
            sorted[before[d]] = mine[j];
            before[d] += 1u;
        }
    }
}
