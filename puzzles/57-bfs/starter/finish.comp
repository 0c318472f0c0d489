#version 450
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 2) buffer Result { int result[]; };  // a level per node

const int UNREACHED = 0x7fffffff;  // what init wrote: the largest int

// After the last lap only: a node no lap reached is -1.
void main() {
    uint v = gl_GlobalInvocationID.x;
    if (v < uint(result.length()) && result[v] == UNREACHED) {
        result[v] = -1;
    }
}
