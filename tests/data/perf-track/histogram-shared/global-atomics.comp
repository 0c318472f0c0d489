#version 450
// The naive histogram: right counts, but one atomicAdd on the global histogram per element.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint BINS = 1;
layout(constant_id = 4) const uint ITEMS = 1;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint first = gl_WorkGroupID.x * wg * ITEMS;
    for (uint k = 0u; k < ITEMS; k++) {
        uint i = first + k * wg + t;
        if (i < uint(a.length())) {
            atomicAdd(result[a[i]], 1u);
        }
    }
}
