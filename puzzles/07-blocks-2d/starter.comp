#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;
// The matrix is SIZE x SIZE, stored row by row.
layout(constant_id = 3) const uint SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

void main() {
    uvec2 local = gl_LocalInvocationID.xy; // position inside the workgroup
    uvec2 group = gl_WorkGroupID.xy;       // which workgroup, in 2D
    // Your code here: find this thread's (row, column), then add 10 to that cell.
}
