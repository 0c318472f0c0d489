#version 450
// Up-sweep, one dispatch per level: level = 0, 1, ..., L-1 (the push constant). Every workgroup
// scans one block of B = WG * ITEMS cells of its level, inclusive and as if it were alone, and
// writes the block's total into the level above:
//   level 0   the input `a`, scanned into `result`
//   level k   the block totals of level k-1, kept in `sums` and scanned in place
// The block scan is scan-blocks' scan_tiles, chunk by chunk; only where its cells come from and
// go to depends on the level: levelAt(), loadChunk() and storeChunk().
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;  // elements per thread in a block
layout(constant_id = 4) const uint CHUNK = 1;  // elements per thread in one chunk (divides ITEMS)

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { uint result[]; };
layout(set = 0, binding = 2) buffer Sums { uint sums[]; };

layout(push_constant) uniform Level { uint level; };

// One chunk of the block, WG * CHUNK cells, with a spare cell after every 32 (bank conflicts:
// see scan-blocks).
shared uint chunk[gl_WorkGroupSize.x * CHUNK + gl_WorkGroupSize.x * CHUNK / 32u];
shared uint subgroupTotals[gl_WorkGroupSize.x];  // one cell per subgroup (never more than WG)

uint padded(uint i) {
    return i + i / 32u;
}

// Where level k lies: `start`, its first cell in `sums` (for k >= 1), and `count`, its size.
// Level 0 has n cells. Each level above has one cell per block of the level below, so level k
// has ceil(n / B^k) cells, and levels 1, 2, 3, ... lie one after the other in `sums`.
void levelAt(uint k, out uint start, out uint count) {
    uint block = gl_WorkGroupSize.x * ITEMS;
    start = 0u;
    count = uint(a.length());
    for (uint l = 1u; l <= k; ++l) {
        if (l > 1u) {
            start += count;  // level l comes right after level l-1, which has `count` cells
        }
        count = (count + block - 1u) / block;
    }
}

// Step 1 of the block scan: load the chunk of this dispatch's level that starts at cell `base`
// into shared memory, coalesced: in round j thread t takes cell base + j * WG + t. Past the end
// of the level: 0, which changes no sum.
// The branch on the level stands around the loop, not inside it. With an `if (level == 0u)` per
// cell the up-sweep took 1.6 times as long on an H100 (1.24 ms instead of 0.76 at n = 2^28),
// most likely because the CHUNK loads of a thread no longer went out together.
void loadChunk(uint start, uint count, uint base) {
    uint wg = gl_WorkGroupSize.x;
    uint t = gl_LocalInvocationID.x;
    if (level == 0u) {
        for (uint j = 0u; j < CHUNK; ++j) {
            uint i = base + j * wg + t;
            chunk[padded(j * wg + t)] = i < count ? a[i] : 0u;
        }
        return;
    }
    for (uint j = 0u; j < CHUNK; ++j) {
        uint i = base + j * wg + t;
        chunk[padded(j * wg + t)] = i < count ? sums[start + i] : 0u;
    }
}

// Step 5: store the scanned chunk to the cells it was loaded from (level 0: into `result`; a
// level above: in place, each thread writing the very cells it loaded).
void storeChunk(uint start, uint count, uint base) {
    uint wg = gl_WorkGroupSize.x;
    uint t = gl_LocalInvocationID.x;
    if (level == 0u) {
        for (uint j = 0u; j < CHUNK; ++j) {
            uint i = base + j * wg + t;
            if (i < count) {
                result[i] = chunk[padded(j * wg + t)];
            }
        }
        return;
    }
    for (uint j = 0u; j < CHUNK; ++j) {
        uint i = base + j * wg + t;
        if (i < count) {
            sums[start + i] = chunk[padded(j * wg + t)];
        }
    }
}

void main() {
    uint start, count;
    levelAt(level, start, count);
    uint above, aboveCount;  // the level above, where the block totals go
    levelAt(level + 1u, above, aboveCount);

    uint block = gl_WorkGroupID.x;
    uint wg = gl_WorkGroupSize.x;
    uint t = gl_LocalInvocationID.x;
    // Subgroups: see scan-subgroup. Never assume their size; count them rounding up.
    uint size = gl_SubgroupSize;
    uint sg = gl_SubgroupID;
    uint numSubgroups = (wg + size - 1u) / size;
    uint e = sg * size + gl_SubgroupInvocationID;  // my place in lane order, for the scan

    uint carry = 0u;  // what comes before this chunk in the block
    for (uint c = 0u; c < ITEMS; c += CHUNK) {
        uint base = block * wg * ITEMS + c * wg;  // the chunk's first cell in the level

        // 1. Load the chunk.
        loadChunk(start, count, base);
        barrier();

        // 2. My CHUNK consecutive cells, added up.
        uint mine = 0u;
        for (uint j = 0u; j < CHUNK; ++j) {
            mine += chunk[padded(e * CHUNK + j)];
        }

        // 3. What comes before my cells in this chunk (subgroups, then their totals), and the
        //    chunk's total.
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

        // 4. Inclusive scan of my cells in place, starting from everything before them.
        uint running = carry + before;
        for (uint j = 0u; j < CHUNK; ++j) {
            uint cell = padded(e * CHUNK + j);
            running += chunk[cell];
            chunk[cell] = running;
        }
        barrier();

        // 5. Store the chunk.
        storeChunk(start, count, base);
        carry += chunkTotal;
        barrier();  // `chunk` and subgroupTotals are read by all before the next chunk reuses them
    }

    // The block's total becomes cell `block` of the level above. At the top level (one block)
    // that is the grand total, which nobody needs; `sums` has room for it all the same.
    if (t == 0u) {
        sums[above + block] = carry;
    }
}
