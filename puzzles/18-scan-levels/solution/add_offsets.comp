#version 450
// Down-sweep, one dispatch per level from the top down: level = L-2, ..., 1, 0 (the push
// constant). The level above (level + 1) is finished by now: its cell b is the sum of every cell
// of this level up to the end of block b. The up-sweep scanned each block of this level on its
// own, so block b is finished by adding cell b-1 of the level above: all that comes before it.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;  // elements per thread in a block

layout(set = 0, binding = 1) buffer Result { uint result[]; };
layout(set = 0, binding = 2) buffer Sums { uint sums[]; };

layout(push_constant) uniform Level { uint level; };

// Where level k lies, as in scan_level (`a` is not bound here: `result` has its n cells).
void levelAt(uint k, out uint start, out uint count) {
    uint block = gl_WorkGroupSize.x * ITEMS;
    start = 0u;
    count = uint(result.length());
    for (uint l = 1u; l <= k; ++l) {
        if (l > 1u) {
            start += count;
        }
        count = (count + block - 1u) / block;
    }
}

// Cell i of this dispatch's level: `result` at level 0, else the level's cells in `sums`.
// A branch per cell, which scan_level's loadChunk avoids; here it cost nothing measurable (both
// dispatches of add_offsets at n = 2^28 took 0.72 ms on an H100, as scan-blocks' one does).
uint load(uint start, uint i) {
    if (level == 0u) {
        return result[i];
    }
    return sums[start + i];
}

void store(uint start, uint i, uint v) {
    if (level == 0u) {
        result[i] = v;
    } else {
        sums[start + i] = v;
    }
}

void main() {
    uint block = gl_WorkGroupID.x;
    if (block == 0u) {
        return;  // nothing comes before the first block: the up-sweep finished it
    }
    uint start, count;
    levelAt(level, start, count);
    uint above, aboveCount;
    levelAt(level + 1u, above, aboveCount);
    uint offset = sums[above + block - 1u];  // the same for the whole block

    // Coalesced, as in scan-blocks: in round k thread t takes cell k * WG + t of the block. All
    // ITEMS reads first, then all writes, so that the reads are in flight together.
    uint wg = gl_WorkGroupSize.x;
    uint first = block * wg * ITEMS + gl_LocalInvocationID.x;
    uint v[ITEMS];
    for (uint k = 0u; k < ITEMS; ++k) {
        uint i = first + k * wg;
        v[k] = i < count ? load(start, i) : 0u;
    }
    for (uint k = 0u; k < ITEMS; ++k) {
        uint i = first + k * wg;
        if (i < count) {
            store(start, i, v[k] + offset);
        }
    }
}
