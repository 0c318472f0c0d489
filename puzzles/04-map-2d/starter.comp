#version 450
// A 2D grid of threads: x and y sizes come from the test case.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
// The matrix is SIZE x SIZE, stored row by row.
layout(constant_id = 3) const uint SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

void main() {
    uint c = gl_GlobalInvocationID.x; // column
    uint r = gl_GlobalInvocationID.y; // row
    // Your code here: add 10 to cell (r, c), if that cell exists.
}
