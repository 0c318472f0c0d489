#version 450
// Histogram in shared memory's loop with many items per thread: right counts, coalesced loads, at
// most BINS global atomics per workgroup, but every atomic waits for the load before it. Breaks the
// rule "load all of a thread's elements before counting any" at the atomic (0.49 of copy on an
// H200 at ITEMS = 4, about the same at 64, against the official 0.88).
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint BINS = 1;
layout(constant_id = 4) const uint ITEMS = 1;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

shared uint bins[BINS];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(a.length());
    uint first = gl_WorkGroupID.x * wg * ITEMS + t;
    for (uint b = t; b < BINS; b += wg) {
        bins[b] = 0u;
    }
    barrier();
    for (uint k = 0u; k < ITEMS; k++) {
        uint i = first + k * wg;
        if (i < n) {
            uint x = a[i];
            atomicAdd(bins[x], 1u);
        }
    }
    barrier();
    for (uint b = t; b < BINS; b += wg) {
        uint count = bins[b];
        if (count != 0u) {
            atomicAdd(result[b], count);
        }
    }
}
