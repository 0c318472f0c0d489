#version 450
// Pass 1 of 3, every lap: each workgroup counts the digits of its tile of WG * ITEMS keys and
// writes the 16 counts where the scan (pass 2) expects them: counts[digit * tiles + tile].
// The digit is 4 bits of the key: (key >> shift) & 15, with shift = 4 * lap (0, 4, ..., 28).

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;  // keys per thread in a tile

layout(set = 0, binding = 0) readonly buffer Keys { uint keys[]; };
layout(set = 0, binding = 2) writeonly buffer Counts { uint counts[]; };

layout(push_constant) uniform Lap { uint shift; };

shared uint histogram[16];  // the tile's count of each digit, as in histogram-shared

void main() {
    uint n = uint(keys.length());
    uint tiles = uint(counts.length()) / 16u;
    uint tile = gl_WorkGroupID.x;
    uint wg = gl_WorkGroupSize.x;
    uint t = gl_LocalInvocationID.x;

    // A workgroup may have fewer than 16 threads: each clears every WG-th bin.
    for (uint d = t; d < 16u; d += wg) {
        histogram[d] = 0u;
    }
    barrier();

    // Coalesced: in round j thread t takes key j * WG + t of the tile. Only the count matters
    // here, not which thread saw which key.
    uint base = tile * wg * ITEMS;
    for (uint j = 0u; j < ITEMS; ++j) {
        uint i = base + j * wg + t;
        if (i < n) {
            atomicAdd(histogram[(keys[i] >> shift) & 15u], 1u);
        }
    }
    barrier();

    // Digit-major: all tiles' counts of digit 0 first, then all of digit 1, ... so that ONE
    // exclusive scan of `counts` gives each (digit, tile) the number of keys that go before it:
    // every key with a smaller digit, and the keys of this digit in earlier tiles.
    for (uint d = t; d < 16u; d += wg) {
        counts[d * tiles + tile] = histogram[d];
    }
}
