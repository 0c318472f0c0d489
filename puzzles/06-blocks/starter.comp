#version 450
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

void main() {
    uint local = gl_LocalInvocationID.x; // 0 .. gl_WorkGroupSize.x - 1
    uint group = gl_WorkGroupID.x;       // which workgroup this thread belongs to
    // Your code here: find this thread's element, then add 10 to it.
}
