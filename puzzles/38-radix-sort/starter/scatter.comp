#version 450
// Pass 3 of 3, every lap: move the keys of this workgroup's tile to their places in `sorted`,
// keeping keys of the same digit in their order. After pass 2, counts[digit * tiles + tile] is
// the number of keys that go before this tile's keys of that digit.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;  // keys per thread in a tile

layout(set = 0, binding = 0) readonly buffer Keys { uint keys[]; };
layout(set = 0, binding = 1) writeonly buffer Sorted { uint sorted[]; };
layout(set = 0, binding = 2) readonly buffer Counts { uint counts[]; };

layout(push_constant) uniform Lap { uint shift; };

void main() {
    uint n = uint(keys.length());
    uint tiles = uint(counts.length()) / 16u;
    uint tile = gl_WorkGroupID.x;
    // TODO: each thread takes ITEMS consecutive keys of the tile; place each key after
    // everything that goes before it (see the statement).
}
