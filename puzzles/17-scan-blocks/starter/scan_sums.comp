#version 450
// Pass 2 of 3: ONE workgroup replaces the tile totals in `sums` by their exclusive scan, in
// place: afterwards sums[t] = sums[0] + ... + sums[t-1], what comes before tile t.
// There may be more tiles than one chunk of WG * CHUNK cells: walk over `sums` chunk by chunk
// (like scan_tiles walks over its tile) and carry the running total from chunk to chunk.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 4) const uint CHUNK = 1;  // elements per thread in one chunk

layout(set = 0, binding = 2) buffer Sums { uint sums[]; };

// The same shared arrays as in scan_tiles.
shared uint chunk[gl_WorkGroupSize.x * CHUNK + gl_WorkGroupSize.x * CHUNK / 32u];
shared uint subgroupTotals[gl_WorkGroupSize.x];

uint padded(uint i) {
    return i + i / 32u;
}

void main() {
    uint n = uint(sums.length());  // the number of tiles
    // TODO: for each chunk of WG * CHUNK cells of sums: scan it (exclusive), add the carry,
    // write it back in place, and add the chunk's total to the carry.
}
