#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint BINS = 1;   // bins of the histogram
layout(constant_id = 4) const uint ITEMS = 1;  // elements per thread

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };  // BINS counts, zero at the start

shared uint bins[BINS];  // this workgroup's own histogram

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(a.length());
    uint first = gl_WorkGroupID.x * wg * ITEMS;  // the workgroup's slice starts here

    // 1. Clear the private bins. There may be more bins than threads (BINS = 100, WG = 64), so
    //    each thread clears every WG-th bin.
    for (uint b = t; b < BINS; b += wg) {
        bins[b] = 0u;
    }
    barrier();  // every bin is 0 before anybody counts into it

    // 2. Count the slice into shared memory. Element first + k*WG + t: in each step the threads
    //    read neighbouring elements (coalesced). Two threads may hit the same bin at once, so
    //    the add is atomic, but an atomic on shared memory stays inside the workgroup; a hot bin
    //    only makes this workgroup's threads wait for each other.
    for (uint k = 0u; k < ITEMS; k++) {
        uint i = first + k * wg + t;
        if (i < n) {
            atomicAdd(bins[a[i]], 1u);
        }
    }
    barrier();  // the private histogram is complete

    // 3. Merge: one global atomicAdd per non-zero bin, at most BINS per workgroup, however many
    //    elements the workgroup counted (the naive kernel makes one per element: WG * ITEMS).
    for (uint b = t; b < BINS; b += wg) {
        uint count = bins[b];
        if (count != 0u) {
            atomicAdd(result[b], count);
        }
    }
}
