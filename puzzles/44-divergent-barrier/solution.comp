#version 450
layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };  // one per workgroup

shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;

    // The bug was an early `return` for the threads past the end of a. Those threads then never
    // reached the barriers below, while the rest of their workgroup did: a barrier in control
    // flow that not every thread of the workgroup takes. Vulkan leaves that undefined. Some GPUs
    // hang (the others wait for threads that are gone), some go on, and the threads that went on
    // read the cells the leavers never wrote: whatever an earlier workgroup left there.
    // The fix keeps every thread to the end. A thread past the end stores 0, which changes no
    // sum, so the tree can run over the whole workgroup.
    float v = 0.0;
    if (i < uint(a.length())) {
        v = a[i];
    }
    cache[t] = v;
    barrier();

    // Tree reduction: each round adds the upper part of the partial sums onto the lower part,
    // 16 -> 8 -> 4 -> 2 -> 1, or for odd counts 6 -> 3 -> 2 -> 1. The `if` picks who adds; the
    // barrier stays outside it, where every thread reaches it the same number of times.
    for (uint remaining = gl_WorkGroupSize.x; remaining > 1u;) {
        uint stride = (remaining + 1u) / 2u;
        if (t + stride < remaining) {
            cache[t] += cache[t + stride];
        }
        barrier();
        remaining = stride;
    }

    if (t == 0u) {
        result[gl_WorkGroupID.x] = cache[0];
    }
}
