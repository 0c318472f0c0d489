#version 450
// Pass 2 of 3: ONE workgroup replaces the tile totals in `sums` by their exclusive scan, in
// place: afterwards sums[t] = sums[0] + ... + sums[t-1], what comes before tile t.
// There may be more tiles than WG * ITEMS: walk over `sums` in chunks of WG * ITEMS cells and
// carry the running total from chunk to chunk.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;        // elements per thread
layout(constant_id = 4) const uint SHARED_SIZE = 1;  // = WG: room for one cell per subgroup

layout(set = 0, binding = 2) buffer Sums { uint sums[]; };

shared uint subgroupTotals[SHARED_SIZE];

void main() {
    uint n = uint(sums.length());  // the number of tiles
    // TODO: for each chunk of WG * ITEMS cells of sums: scan it (exclusive), add the carry,
    // write it back in place, and add the chunk's total to the carry.
}
