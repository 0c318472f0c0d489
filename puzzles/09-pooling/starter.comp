#version 450
layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_LocalInvocationID.x; // one workgroup: local and global numbers agree
    // Your code here: result[i] = a[i-2] + a[i-1] + a[i], one global read per thread.
}
