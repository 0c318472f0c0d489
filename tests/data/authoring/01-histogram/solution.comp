#version 450
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(a.length())) return;
    atomicAdd(result[a[i]], 1u); // threads counting the same value add one at a time
}
