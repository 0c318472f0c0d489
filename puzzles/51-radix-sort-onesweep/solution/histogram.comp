#version 450
// Pass 1, lap 0 only: how many keys have each digit, for every lap at once. One read of the
// keys gives all 32 / BITS histograms: histograms[r * DIGITS + d] counts the keys whose digit r,
// (key >> (r * BITS)) & (DIGITS - 1), is d. The laps' scatters then know where each digit
// starts in `sorted` without counting again.
//
// A thousand workgroups at most (the pass's workgroup count is capped): each one walks over
// many tiles, counts into shared memory, and adds its counts to the global ones at the end. One
// workgroup per tile would add 32 / BITS * DIGITS counts per tile to the same few global words,
// and those atomics would queue up at the memory.

#extension GL_EXT_control_flow_attributes : require  // [[unroll]]

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;  // keys per thread in a tile
layout(constant_id = 4) const uint BITS = 4;   // bits of a digit: 1, 2, 4 or 8
const uint DIGITS = 1u << BITS;
const uint LAPS = 32u / BITS;

layout(set = 0, binding = 0) readonly buffer Keys { uint keys[]; };
layout(set = 0, binding = 2) buffer Histograms { uint histograms[]; };

shared uint counts[LAPS * DIGITS];  // this workgroup's share of every lap's histogram

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(keys.length());
    uint tileSize = wg * ITEMS;
    uint tiles = (n + tileSize - 1u) / tileSize;

    for (uint i = t; i < LAPS * DIGITS; i += wg) {
        counts[i] = 0u;
    }
    barrier();

    // Tiles gl_WorkGroupID.x, + gl_NumWorkGroups.x, ...; in a tile, key j * WG + t (coalesced).
    // All ITEMS loads first, then the counting: the loads overlap instead of each waiting for
    // the atomics before it.
    for (uint tile = gl_WorkGroupID.x; tile < tiles; tile += gl_NumWorkGroups.x) {
        uint mine[ITEMS];
        [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
            mine[j] = keys[min(tile * tileSize + j * wg + t, n - 1u)];
        }
        [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
            if (tile * tileSize + j * wg + t < n) {
                for (uint r = 0u; r < LAPS; ++r) {
                    atomicAdd(counts[r * DIGITS + ((mine[j] >> (r * BITS)) & (DIGITS - 1u))], 1u);
                }
            }
        }
    }
    barrier();

    for (uint i = t; i < LAPS * DIGITS; i += wg) {
        if (counts[i] != 0u) {
            atomicAdd(histograms[i], counts[i]);
        }
    }
}
