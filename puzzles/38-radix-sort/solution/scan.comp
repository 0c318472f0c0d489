#version 450
// Pass 2 of 3, every lap: ONE workgroup replaces `counts` by its exclusive scan, in place:
// afterwards counts[d * tiles + t] = the number of keys that go before the keys of digit d in
// tile t. This is scan_sums of scan-blocks: chunks of WG * CHUNK cells, each scanned like a
// tile, with the running total carried from chunk to chunk.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 4) const uint CHUNK = 1;  // cells per thread in one chunk

layout(set = 0, binding = 2) buffer Counts { uint counts[]; };

// One chunk, WG * CHUNK cells, with a spare cell after every 32 against bank conflicts (step 2
// and 4 read cells CHUNK apart: see scan-blocks).
shared uint chunk[gl_WorkGroupSize.x * CHUNK + gl_WorkGroupSize.x * CHUNK / 32u];
shared uint subgroupTotals[gl_WorkGroupSize.x];  // one cell per subgroup (never more than WG)

uint padded(uint i) {
    return i + i / 32u;
}

void main() {
    uint n = uint(counts.length());  // 16 digits x tiles
    uint wg = gl_WorkGroupSize.x;
    uint t = gl_LocalInvocationID.x;
    uint size = gl_SubgroupSize;
    uint sg = gl_SubgroupID;
    uint numSubgroups = (wg + size - 1u) / size;  // not gl_NumSubgroups: lavapipe rounds down
    uint e = sg * size + gl_SubgroupInvocationID;  // my place in lane order

    uint carry = 0u;  // all cells of earlier chunks, the same in every thread
    for (uint base = 0u; base < n; base += wg * CHUNK) {
        // 1. Load the chunk, coalesced (0 past the end).
        for (uint j = 0u; j < CHUNK; ++j) {
            uint i = base + j * wg + t;
            chunk[padded(j * wg + t)] = i < n ? counts[i] : 0u;
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

        // 4. Exclusive scan of my cells in place.
        uint running = carry + before;
        for (uint j = 0u; j < CHUNK; ++j) {
            uint cell = padded(e * CHUNK + j);
            uint v = chunk[cell];
            chunk[cell] = running;
            running += v;
        }
        barrier();

        // 5. Store the chunk back; each thread writes exactly the cells it loaded.
        for (uint j = 0u; j < CHUNK; ++j) {
            uint i = base + j * wg + t;
            if (i < n) {
                counts[i] = chunk[padded(j * wg + t)];
            }
        }
        // No barrier needed before the next chunk: step 5 reads only the cells this thread
        // loads next, and nobody writes subgroupTotals again before the next chunk's first
        // barrier, which every thread reaches only after reading them here.
        carry += chunkTotal;
    }
}
