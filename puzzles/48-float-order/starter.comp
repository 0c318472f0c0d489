#version 450
// The kernel as it was handed to you: it compiles, and it is wrong. See the statement.
layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };  // one per workgroup

shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;

    // Every thread loads one reading (0 past the end of a).
    cache[t] = i < uint(a.length()) ? a[i] : 0.0;
    barrier();

    // Thread 0 adds up the block's readings, in order.
    if (t == 0u) {
        float total = 0.0;
        for (uint k = 0u; k < gl_WorkGroupSize.x; ++k) {
            total += cache[k];
        }
        result[gl_WorkGroupID.x] = total;
    }
}
