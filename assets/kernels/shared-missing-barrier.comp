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
    if (i < n) cache[local] = a[i];
    // forgot barrier(): reads a neighbour's cell
    if (i < n) result[i] = cache[(local + 1) % SHARED_SIZE] + 10.0;
}
