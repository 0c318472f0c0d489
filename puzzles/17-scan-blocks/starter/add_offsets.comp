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
    // TODO: add sums[tile] to the WG * ITEMS elements of this tile (those < n). In round k,
    // let thread t take element k * WG + t of the tile: coalesced.
}
