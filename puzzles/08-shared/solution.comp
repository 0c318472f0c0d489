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

    // Step 1: the one global read of this thread, parked in shared memory.
    if (i < n) {
        cache[local] = a[i];
    }

    // Wait until every thread of the workgroup has stored its value. The barrier sits outside
    // the guard on purpose: all threads of a workgroup must reach the same barriers, or the
    // behaviour is undefined (typically a hang). Here each thread reads back only its own cell,
    // so nothing would break without it yet; from the next puzzle on, threads read cells that
    // their neighbours wrote, and this barrier is what makes that safe.
    barrier();

    // Step 2: the one global write, computed from shared memory.
    if (i < n) {
        result[i] = cache[local] + 10.0;
    }
}
