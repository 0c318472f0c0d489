#version 450
// Bitonic sort in a workgroup: workgroup w sorts its block of ELEMS = 2 * WG consecutive values,
// x[w * ELEMS] to x[w * ELEMS + ELEMS - 1], in shared memory, and writes it to result.

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ELEMS = 2;  // the block: 2 * WG values, WG a power of two

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

shared float tile[ELEMS];

// The one operation of a sorting network: the smaller value to the lower index. No branch: every
// thread does the same work whatever the data.
void compareExchange(uint i, uint j) {
    float a = tile[i];
    float b = tile[j];
    tile[i] = min(a, b);
    tile[j] = max(a, b);
}

void main() {
    uint n = uint(x.length());
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint base = gl_WorkGroupID.x * ELEMS;  // where this workgroup's block starts
    float infinity = uintBitsToFloat(0x7f800000u);

    // Two cells per thread, t and t + WG. The network compares the same pairs whatever the data,
    // so every cell must hold a value: past the end of x, +infinity, which sorts last and is
    // never written back.
    tile[t] = base + t < n ? x[base + t] : infinity;
    tile[t + wg] = base + t + wg < n ? x[base + t + wg] : infinity;
    barrier();

    // Stage `size`: the runs of size / 2 are sorted; make the runs of `size` sorted.
    for (uint size = 2u; size <= ELEMS; size *= 2u) {
        // The flip: cell i of the first run against its mirror in the second, i ^ (size - 1).
        // After it, every value of the lower half is at most every value of the upper half.
        uint halfSize = size / 2u;
        uint i = (t / halfSize) * size + t % halfSize;
        compareExchange(i, i ^ (size - 1u));
        barrier();  // the next step reads cells that other threads just wrote
        // The half-cleaners: cell k against k + d, d = size / 4, ..., 1, sort each half.
        for (uint d = size / 4u; d > 0u; d /= 2u) {
            uint k = (t / d) * 2u * d + t % d;
            compareExchange(k, k + d);
            barrier();
        }
    }

    // The same two cells back, only those inside x: the padding stays behind.
    if (base + t < n) {
        result[base + t] = tile[t];
    }
    if (base + t + wg < n) {
        result[base + t + wg] = tile[t + wg];
    }
}
