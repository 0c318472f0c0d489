// puzzle: divergent-barrier
// expect: divergent barrier
// mistake: the tree's barrier moved into the `if` that picks who adds, and an `else` given one
// too so that the counts agree: the adders and the others meet at different barriers each round
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;

    cache[t] = i < uint(a.length()) ? a[i] : 0.0;
    barrier();

    for (uint remaining = gl_WorkGroupSize.x; remaining > 1u;) {
        uint stride = (remaining + 1u) / 2u;
        if (t + stride < remaining) {
            cache[t] += cache[t + stride];
            barrier();
        } else {
            barrier();
        }
        remaining = stride;
    }

    if (t == 0u) {
        result[gl_WorkGroupID.x] = cache[0];
    }
}
