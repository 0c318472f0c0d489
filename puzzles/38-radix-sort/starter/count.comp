#version 450
// Pass 1 of 3, every lap: count the digits of this workgroup's tile of WG * ITEMS keys and
// write the 16 counts to counts[digit * tiles + tile]. The digit of a key this lap is
// (key >> shift) & 15.

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;  // keys per thread in a tile

layout(set = 0, binding = 0) readonly buffer Keys { uint keys[]; };
layout(set = 0, binding = 2) writeonly buffer Counts { uint counts[]; };

layout(push_constant) uniform Lap { uint shift; };

void main() {
    uint n = uint(keys.length());
    uint tiles = uint(counts.length()) / 16u;
    uint tile = gl_WorkGroupID.x;
    // TODO: a histogram of 16 bins in shared memory, then the 16 counts to `counts`.
}
