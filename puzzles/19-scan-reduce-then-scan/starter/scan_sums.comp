#version 450
// Pass 2 of 3, the same as in scan-blocks: ONE workgroup replaces the tile totals in `sums` by
// their exclusive scan, in place: afterwards sums[t] = sums[0] + ... + sums[t-1], what comes
// before tile t. There may be more tiles than this workgroup takes in one go, so it walks over
// `sums` in chunks of WG * CHUNK cells, scanning each like pass 3 scans a chunk of its tile and
// carrying the running total from chunk to chunk. (A library would recurse instead; 2^28
// elements make only 32768 tiles: sixteen chunks of 256 x 8.)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 4) const uint CHUNK = 1;  // elements per thread in one chunk

layout(set = 0, binding = 2) buffer Sums { uint sums[]; };

// One chunk, WG * CHUNK cells, with a spare cell after every 32 against bank conflicts.
shared uint chunk[gl_WorkGroupSize.x * CHUNK + gl_WorkGroupSize.x * CHUNK / 32u];
shared uint subgroupTotals[gl_WorkGroupSize.x];  // one cell per subgroup (never more than WG)

uint padded(uint i) {
    return i + i / 32u;
}

void main() {
    uint n = uint(sums.length());  // the number of tiles
    uint wg = gl_WorkGroupSize.x;
    uint t = gl_LocalInvocationID.x;
    uint size = gl_SubgroupSize;
    uint sg = gl_SubgroupID;
    uint numSubgroups = (wg + size - 1u) / size;  // not gl_NumSubgroups: lavapipe rounds down
    uint e = sg * size + gl_SubgroupInvocationID;  // my place in lane order, for the scan

    uint carry = 0u;  // the sum of all earlier chunks, the same in every thread
    for (uint base = 0u; base < n; base += wg * CHUNK) {
        // 1. Load the chunk, coalesced (0 past the end of sums).
        for (uint j = 0u; j < CHUNK; ++j) {
            uint i = base + j * wg + t;
            chunk[padded(j * wg + t)] = i < n ? sums[i] : 0u;
        }
        barrier();

        // 2. My CHUNK consecutive cells, added up.
        uint mine = 0u;
        for (uint j = 0u; j < CHUNK; ++j) {
            mine += chunk[padded(e * CHUNK + j)];
        }

        // 3. What comes before my cells in this chunk, and the chunk's total.
        uint before = subgroupExclusiveAdd(mine);
        uint total = subgroupAdd(mine);
        if (subgroupElect()) {
            subgroupTotals[sg] = total;
        }
        barrier();
        uint chunkTotal = 0u;
        for (uint s = 0u; s < numSubgroups; ++s) {
            uint v = subgroupTotals[s];
            if (s < sg) {
                before += v;
            }
            chunkTotal += v;
        }

        // 4. EXCLUSIVE scan of my cells in place: each cell gets the sum of all cells before it.
        uint running = carry + before;
        for (uint j = 0u; j < CHUNK; ++j) {
            uint cell = padded(e * CHUNK + j);
            uint v = chunk[cell];
            chunk[cell] = running;
            running += v;
        }
        barrier();

        // 5. Store the chunk back into `sums`. Each thread writes exactly the cells it loaded,
        //    so no other thread can still need their old values.
        for (uint j = 0u; j < CHUNK; ++j) {
            uint i = base + j * wg + t;
            if (i < n) {
                sums[i] = chunk[padded(j * wg + t)];
            }
        }
        carry += chunkTotal;
        barrier();  // `chunk` and subgroupTotals are read by all before the next chunk reuses them
    }
}
