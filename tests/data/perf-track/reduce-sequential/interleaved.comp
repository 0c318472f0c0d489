#version 450
layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };  // one cell per workgroup

shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;  // element of a
    uint t = gl_LocalInvocationID.x;   // cell of cache
    uint wg = gl_WorkGroupSize.x;

    // 1. One global read per thread; threads past the end of a store 0, which changes no sum.
    float v = 0.0;
    if (i < uint(a.length())) {
        v = a[i];
    }
    cache[t] = v;
    barrier();

    // Interleaved addressing: every 2nd, then 4th, 8th... thread is busy, in every subgroup.
    for (uint s = 1; s < wg; s *= 2) {
        if (t % (2 * s) == 0 && t + s < wg) {
            cache[t] += cache[t + s];
        }
        barrier();
    }

    // 3. One thread per workgroup publishes the total.
    if (t == 0) {
        result[gl_WorkGroupID.x] = cache[0];
    }
}
