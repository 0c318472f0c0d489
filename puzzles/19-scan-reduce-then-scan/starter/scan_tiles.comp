#version 450
// Pass 3 of 3: every workgroup scans its tile of WG * ITEMS elements of `a` again, this time
// starting from sums[tile] (everything before the tile, from passes 1 and 2), and writes the
// finished prefix sums to `result`. It reads `a` once and writes `result` once.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;  // elements per thread in a tile
layout(constant_id = 4) const uint CHUNK = 1;  // elements per thread in one chunk (divides ITEMS)

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { uint result[]; };
layout(set = 0, binding = 2) readonly buffer Sums { uint sums[]; };

// One chunk of the tile, WG * CHUNK elements, with a spare cell after every 32 (see padded()).
shared uint chunk[gl_WorkGroupSize.x * CHUNK + gl_WorkGroupSize.x * CHUNK / 32u];
shared uint subgroupTotals[gl_WorkGroupSize.x];  // one cell per subgroup (never more than WG)

// Shared memory is served by 32 banks, word i in bank i % 32. In step 2 thread e reads cells
// e * CHUNK + j: with CHUNK = 16 the 32 threads of a subgroup would all hit banks 0 and 16 and
// wait for each other. A spare cell after every 32 shifts each row of 32 by one bank, and the
// reads spread over all 32 banks.
uint padded(uint i) {
    return i + i / 32u;
}

void main() {
    uint n = uint(a.length());
    uint tile = gl_WorkGroupID.x;
    uint wg = gl_WorkGroupSize.x;
    uint t = gl_LocalInvocationID.x;
    // Subgroups: see scan-subgroup. Never assume their size (8 on lavapipe, 32 on NVIDIA);
    // count them rounding up (lavapipe's gl_NumSubgroups rounds down).
    uint size = gl_SubgroupSize;
    uint sg = gl_SubgroupID;
    uint numSubgroups = (wg + size - 1u) / size;
    uint e = sg * size + gl_SubgroupInvocationID;  // my place in lane order, for the scan

    // TODO: start from what comes before this tile, sums[tile] after passes 1 and 2. This
    // starter scans every tile as if it were the first one.
    uint carry = 0u;  // what comes before this chunk: first the tiles before mine
    for (uint c = 0u; c < ITEMS; c += CHUNK) {
        uint base = tile * wg * ITEMS + c * wg;  // the chunk's first element

        // 1. Load the chunk into shared memory, coalesced: in round j, thread t takes element
        //    j * WG + t, so the workgroup reads WG consecutive words at a time. Past the end of
        //    `a`: 0, which changes no sum.
        for (uint j = 0u; j < CHUNK; ++j) {
            uint i = base + j * wg + t;
            chunk[padded(j * wg + t)] = i < n ? a[i] : 0u;
        }
        barrier();

        // 2. Now each thread takes CHUNK CONSECUTIVE elements, e * CHUNK .. e * CHUNK + CHUNK-1,
        //    and adds them up on its own: no other thread is involved.
        uint mine = 0u;
        for (uint j = 0u; j < CHUNK; ++j) {
            mine += chunk[padded(e * CHUNK + j)];
        }

        // 3. Scan the threads' sums across the workgroup: what comes before my elements in this
        //    chunk. Inside a subgroup in hardware (subgroupExclusiveAdd), then the subgroups'
        //    totals through shared memory, as in scan-subgroup. Every thread also adds up the
        //    whole chunk, for the carry.
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

        // 4. Scan my own elements in place, starting from everything before them.
        uint running = carry + before;
        for (uint j = 0u; j < CHUNK; ++j) {
            uint cell = padded(e * CHUNK + j);
            running += chunk[cell];
            chunk[cell] = running;
        }
        barrier();

        // 5. Store the chunk, coalesced again, in the order it was loaded.
        for (uint j = 0u; j < CHUNK; ++j) {
            uint i = base + j * wg + t;
            if (i < n) {
                result[i] = chunk[padded(j * wg + t)];
            }
        }
        carry += chunkTotal;
        barrier();  // `chunk` and subgroupTotals are read by all before the next chunk reuses them
    }
}
