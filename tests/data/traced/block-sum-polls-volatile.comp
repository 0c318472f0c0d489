// puzzle: block-sum
// expect: read limit
// cases: 1-2
// Reads its own element of a volatile buffer again and again, as a look-back polls a flag that
// another workgroup has not set yet: the same value each time, 300 times a thread. The trace
// keeps them as one record and a count (a Repeat record), so they take no room; they are reads
// all the same, and block-sum allows one a thread.
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly volatile buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };  // one cell per workgroup

shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    float v = 0.0;
    for (uint k = 0u; k < 300u; ++k) {
        v = i < uint(a.length()) ? a[i] : 0.0;
    }
    cache[t] = v;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
        if (t < s) cache[t] += cache[t + s];
        barrier();
    }
    if (t == 0u) result[gl_WorkGroupID.x] = cache[0];
}
