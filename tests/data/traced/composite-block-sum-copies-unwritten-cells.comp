// puzzle: block-sum
// expect: uninitialised read
// case: 1
// mistake: the whole 16-cell cache is copied, but a workgroup of 8 wrote only cells 0..7
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

    if (t == 0) {
        float tmp[16] = cache;  // cells n..15 were never written
        float sum = 0.0;
        for (uint k = 0; k < n; ++k) {
            sum += tmp[k];
        }
        result[gl_WorkGroupID.x] = sum;
    }
}
