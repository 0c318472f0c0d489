#version 450
// Workgroups of WG threads; SHARED_SIZE = 2 * WG (a power of two): each thread owns two cells.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 2;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

shared uint temp[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;  // = SHARED_SIZE / 2
    uint n = uint(a.length());
    // Your code here: load cells t and t + wg (0 past the end of a), up-sweep, clear the last
    // cell, down-sweep, then write result[t] and result[t + wg] (when they are inside a).
}
