#version 450
// Pass 2 of 3, the same as in scan-blocks: ONE workgroup replaces the tile totals in `sums` by
// their exclusive scan, in place: afterwards sums[t] = sums[0] + ... + sums[t-1], what comes
// before tile t. There may be more tiles than this workgroup takes in one go (WG * ITEMS), so
// it walks over `sums` in chunks of WG * ITEMS, scanning each like pass 3 scans a tile and
// carrying the running total from chunk to chunk. (A library would recurse instead; 2^28
// elements make only 32768 tiles, four chunks.)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;        // elements per thread
layout(constant_id = 4) const uint SHARED_SIZE = 1;  // = WG: room for one cell per subgroup

layout(set = 0, binding = 2) buffer Sums { uint sums[]; };

shared uint subgroupTotals[SHARED_SIZE];  // the total of each subgroup's stretch of the chunk

void main() {
    uint n = uint(sums.length());  // the number of tiles
    uint wg = gl_WorkGroupSize.x;
    uint size = gl_SubgroupSize;
    uint sg = gl_SubgroupID;
    uint lane = gl_SubgroupInvocationID;
    uint lanes = min(size, wg - sg * size);          // threads in my subgroup (the last: fewer)
    uint numSubgroups = (wg + size - 1u) / size;     // not gl_NumSubgroups: lavapipe rounds down

    uint carry = 0u;  // the sum of all earlier chunks, the same in every thread
    for (uint base = 0u; base < n; base += wg * ITEMS) {
        // The chunk [base, base + WG * ITEMS) is laid out like a tile in pass 1: subgroup s
        // owns a stretch starting at s * size * ITEMS, its lanes read consecutive cells.
        uint first = base + sg * size * ITEMS + lane;

        uint v[ITEMS];
        for (uint k = 0u; k < ITEMS; ++k) {
            uint i = first + k * lanes;
            v[k] = i < n ? sums[i] : 0u;
        }

        // Scan my stretch, EXCLUSIVE this time: v[k] becomes the sum of the cells before it.
        uint stretch = 0u;
        for (uint k = 0u; k < ITEMS; ++k) {
            uint roundTotal = subgroupAdd(v[k]);
            v[k] = stretch + subgroupExclusiveAdd(v[k]);
            stretch += roundTotal;
        }

        if (subgroupElect()) {
            subgroupTotals[sg] = stretch;
        }
        barrier();
        // What comes before my stretch in the chunk, and the whole chunk's total (for the
        // carry: every thread needs it, so every thread adds up all the cells).
        uint before = 0u;
        uint chunkTotal = 0u;
        for (uint s = 0u; s < numSubgroups; ++s) {
            if (s < sg) {
                before += subgroupTotals[s];
            }
            chunkTotal += subgroupTotals[s];
        }

        // In place: each thread writes exactly the cells it read, so no other thread can still
        // need their old values.
        for (uint k = 0u; k < ITEMS; ++k) {
            uint i = first + k * lanes;
            if (i < n) {
                sums[i] = carry + before + v[k];
            }
        }
        carry += chunkTotal;
        barrier();  // everyone has read subgroupTotals before the next chunk overwrites them
    }
}
