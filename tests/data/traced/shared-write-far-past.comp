// puzzle: shared
// expect: out of bounds
// mistake: one store far past the end of the shared array: a driver that keeps workgroup memory
// on the heap (lavapipe) would let it corrupt the process (rewrite/shared_bounds_rewriter.h)
#version 450
layout(local_size_x_id = 0) in;
// Length of the shared array, set by the test case (at least the workgroup size).
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

// One copy per workgroup, visible to all of its threads.
shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;     // index into the buffers (whole launch)
    uint local = gl_LocalInvocationID.x;  // index into cache (this workgroup only)
    uint n = uint(a.length());
    // This workgroup's block: from `start`, `count` elements (a whole workgroup, or what is left).
    uint start = gl_WorkGroupID.x * gl_WorkGroupSize.x;
    uint count = n > start ? min(gl_WorkGroupSize.x, n - start) : 0u;

    // Step 1: the one global read of this thread, parked in shared memory.
    if (local < count) {
        cache[local] = a[i];
        cache[local * 4096u + 100000u] = 7.0;  // far past the end of cache
    }

    // Wait until every thread of the workgroup has stored its value: step 2 reads the cell that
    // ANOTHER thread wrote. The barrier sits outside the guard on purpose: all threads of a
    // workgroup must reach the same barriers, or the behaviour is undefined (typically a hang).
    barrier();

    // Step 2: the one global write, the mirror cell of the block.
    if (local < count) {
        result[i] = cache[count - 1u - local];
    }
}
