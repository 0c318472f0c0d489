#version 450
// Pass 1 of 3: every workgroup adds up its tile of WG * ITEMS elements of `a` and writes the
// total to sums[tile]. It reads `a` once and writes nothing else: no scan yet.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;  // elements per thread in a tile

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 2) writeonly buffer Sums { uint sums[]; };

shared uint subgroupTotals[gl_WorkGroupSize.x];  // one cell per subgroup (never more than WG)

void main() {
    uint n = uint(a.length());
    uint tile = gl_WorkGroupID.x;
    // TODO: add up the elements of this tile (those < n), coalesced: in round k, thread t takes
    // element k * WG + t of the tile. Then combine the threads' sums and write sums[tile].
}
