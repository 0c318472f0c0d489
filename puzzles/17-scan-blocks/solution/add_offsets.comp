#version 450
// Pass 3 of 3: every workgroup adds to its tile of `result` what comes before the tile,
// sums[tile] (the exclusive scan of the tile totals, from pass 2).
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;  // elements per thread

layout(set = 0, binding = 1) buffer Result { uint result[]; };
layout(set = 0, binding = 2) readonly buffer Sums { uint sums[]; };

void main() {
    uint n = uint(result.length());
    uint tile = gl_WorkGroupID.x;
    uint wg = gl_WorkGroupSize.x;
    uint t = gl_LocalInvocationID.x;

    uint offset = sums[tile];  // the same for the whole tile
    // Which element goes where does not matter here, only that memory is touched in order:
    // in round k, thread t takes element k * WG + t of the tile, so the workgroup's threads
    // read and write WG consecutive words at a time (coalesced).
    // Read all ITEMS elements first, then write them all: the reads are then all in flight at
    // once. (In a loop of `result[i] += offset` each read would wait for the write before it:
    // the compiler cannot tell that the write does not change what the next read returns.)
    uint first = tile * wg * ITEMS + t;
    uint v[ITEMS];
    for (uint k = 0u; k < ITEMS; ++k) {
        uint i = first + k * wg;
        v[k] = i < n ? result[i] : 0u;
    }
    for (uint k = 0u; k < ITEMS; ++k) {
        uint i = first + k * wg;
        if (i < n) {
            result[i] = v[k] + offset;
        }
    }
}
