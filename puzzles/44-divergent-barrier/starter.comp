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

    // Threads past the end of a have nothing to add: they leave at once.
    if (i >= uint(a.length())) {
        return;
    }

    cache[t] = a[i];
    barrier();

    // Tree reduction: each round adds the upper part of the partial sums onto the lower part,
    // 16 -> 8 -> 4 -> 2 -> 1, or for odd counts 6 -> 3 -> 2 -> 1.
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
