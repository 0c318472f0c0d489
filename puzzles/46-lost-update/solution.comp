#version 450
layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) buffer Result { int result[]; };  // one cell, 0 at the start

shared int cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;

    // 1. One element per thread (0 past the end of a) into shared memory.
    cache[t] = i < uint(a.length()) ? a[i] : 0;
    barrier();

    // 2. The workgroup's sum, as a tree: 16 -> 8 -> 4 -> 2 -> 1 (odd counts: 6 -> 3 -> 2 -> 1).
    for (uint remaining = gl_WorkGroupSize.x; remaining > 1u;) {
        uint stride = (remaining + 1u) / 2u;
        if (t + stride < remaining) {
            cache[t] += cache[t + stride];
        }
        barrier();
        remaining = stride;
    }

    // 3. Thread 0 adds the workgroup's sum to the total. The broken kernel did it with
    //    `result[0] += cache[0]`: a load, an add and a store, three steps. Two workgroups that
    //    both load before either stores both add to the same old total, and the second store
    //    overwrites the first: one workgroup's sum is lost. barrier() cannot help, it only
    //    orders the threads of one workgroup; nothing orders workgroups inside a dispatch.
    //    atomicAdd does the load, add and store as one indivisible step, so every sum lands,
    //    whatever the order the workgroups come in. One atomic per workgroup: the tree above
    //    keeps them few.
    if (t == 0u) {
        atomicAdd(result[0], cache[0]);
    }
}
