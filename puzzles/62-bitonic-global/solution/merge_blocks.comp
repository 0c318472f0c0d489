#version 450
// The end of a stage, in shared memory: once the exchange passes have done the steps whose pairs
// lie in different blocks, every pair of the steps left (d = ELEMS / 2, ..., 2, 1) lies inside
// one block of ELEMS. One dispatch does them all: workgroup w loads its block of result, runs the
// half-cleaners with a barrier after each, and writes it back.

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ELEMS = 2;  // the block: 2 * WG values, WG a power of two

layout(set = 0, binding = 1) buffer Result { float result[]; };

shared float tile[ELEMS];

void compareExchange(uint i, uint j) {
    float a = tile[i];
    float b = tile[j];
    tile[i] = min(a, b);
    tile[j] = max(a, b);
}

void main() {
    uint n = uint(result.length());
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint base = gl_WorkGroupID.x * ELEMS;
    float infinity = uintBitsToFloat(0x7f800000u);

    // The last block may be short: the padding again, +infinity, never written back.
    tile[t] = base + t < n ? result[base + t] : infinity;
    tile[t + wg] = base + t + wg < n ? result[base + t + wg] : infinity;
    // No barrier yet: the first half-cleaner (d = WG) pairs cells t and t + WG, the two this
    // thread has just loaded. Every later step reads other threads' cells: a barrier after each.

    // Half-cleaners only: no flip here, the exchange pass did this stage's flip.
    for (uint d = wg; d > 0u; d /= 2u) {
        uint k = (t / d) * 2u * d + t % d;
        compareExchange(k, k + d);
        barrier();
    }

    if (base + t < n) {
        result[base + t] = tile[t];
    }
    if (base + t + wg < n) {
        result[base + t + wg] = tile[t + wg];
    }
}
