#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;  // the workgroup size

layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) readonly buffer Flags { uint flags[]; };  // 1: a segment starts
layout(set = 0, binding = 2) writeonly buffer Result { int result[]; };

// Each cell is a pair: the running sum, and whether a head lies anywhere in its range.
shared int sums[SHARED_SIZE];
shared uint heads[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    uint n = uint(a.length());
    // Your code here: load the pair (a[i], flags[i]), then the rounds d = 1, 2, 4, ... of a
    // Hillis-Steele scan combining each pair with the one d to its left, then write result[i].
}
