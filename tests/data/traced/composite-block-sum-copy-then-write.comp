// puzzle: block-sum
// expect: race
// case: 3
// mistake: every thread copies the whole cache, then overwrites its own cell without a barrier
// in between: another thread may still be copying that cell
#version 450
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };  // one cell per workgroup

shared float cache[16];  // room for the largest workgroup of the cases

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    uint n = gl_WorkGroupSize.x;

    cache[t] = i < uint(a.length()) ? a[i] : 0.0;
    barrier();

    // Each thread adds up cells 0..t of its own copy: an inclusive prefix sum.
    float tmp[16] = cache;
    float partial = 0.0;
    for (uint k = 0; k <= t; ++k) {
        partial += tmp[k];
    }
    if (t > 0) {
        cache[t] = partial;  // cell 0 already holds its sum
    }
    barrier();

    if (t == n - 1) {
        result[gl_WorkGroupID.x] = cache[t];
    }
}
