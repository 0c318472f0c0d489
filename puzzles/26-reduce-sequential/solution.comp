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

    // 2. Sequential addressing: in each round the LOWEST s threads are the busy ones, and each
    //    adds the cell s places up: cache[t] += cache[t + s]. The busy threads are always the
    //    first threads of the workgroup, so a subgroup of 32 lanes is either all busy or all idle
    //    as long as s >= 32; only the last five rounds (s = 16, 8, 4, 2, 1) split a subgroup,
    //    and only subgroup 0.
    //    (Interleaved addressing, `if (t % (2 * s) == 0)` with s doubling, picks every 2nd,
    //    4th, 8th... thread instead: the busy threads are spread over every subgroup, so every
    //    subgroup runs each round with most of its lanes idle.)
    //    s starts at the power of two below WG (WG = 96: 64), and `t + s < wg` skips the cells
    //    past the end, so any workgroup size works.
    uint s = 1;
    while (s * 2 < wg) {
        s *= 2;
    }
    for (; s > 0; s /= 2) {
        if (t < s && t + s < wg) {
            cache[t] += cache[t + s];
        }
        barrier();  // outside the if: every thread of the workgroup reaches every barrier
    }

    // 3. One thread per workgroup publishes the total.
    if (t == 0) {
        result[gl_WorkGroupID.x] = cache[0];
    }
}
