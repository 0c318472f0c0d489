#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint local = gl_LocalInvocationID.x;
    uint n = uint(a.length());
    uint start = gl_WorkGroupID.x * gl_WorkGroupSize.x;
    uint count = n > start ? min(gl_WorkGroupSize.x, n - start) : 0u;

    if (local < count) cache[local] = a[i];
    // forgot barrier(): the mirror cell may not be written yet
    if (local < count) result[i] = cache[count - 1u - local];
}
