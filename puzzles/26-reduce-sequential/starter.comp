#version 450
layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };  // one cell per workgroup

shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;  // element of a
    uint t = gl_LocalInvocationID.x;   // cell of cache
    // Your code here: load a[i] (or 0 past the end) into cache[t], reduce the cells as a tree
    // whose busy threads are t < s, and write result[gl_WorkGroupID.x].
}
