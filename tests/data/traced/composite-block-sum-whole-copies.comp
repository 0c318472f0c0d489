// puzzle: block-sum
// expect: clean
// cases: 1-7
// Whole-array copies done right: every cell written before the barrier, the cache copied after
// it, and the one thread that stores a whole array back alone between two barriers.
#version 450
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };  // one cell per workgroup

shared float cache[16];  // room for the largest workgroup of cases 1-7 (not the benchmark's 256)

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    uint n = gl_WorkGroupSize.x;

    // Cell t holds this thread's element; the cells past the workgroup hold 0.
    float v = i < uint(a.length()) ? a[i] : 0.0;
    for (uint c = t; c < 16; c += n) {
        cache[c] = c == t ? v : 0.0;
    }
    barrier();

    float tmp[16] = cache;  // every thread reads; nobody writes in this round
    barrier();

    if (t == 0) {
        for (uint k = 1; k < 16; ++k) {
            tmp[0] += tmp[k];
        }
        cache = tmp;  // the total lands in cell 0
    }
    barrier();

    if (t == 0) {
        result[gl_WorkGroupID.x] = cache[0];
    }
}
