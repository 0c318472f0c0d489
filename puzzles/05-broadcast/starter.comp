#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };       // column, n values
layout(set = 0, binding = 1) readonly buffer B { float b[]; };       // row, m values
layout(set = 0, binding = 2) buffer Result { float result[]; };      // n x m, row-major

void main() {
    uint j = gl_GlobalInvocationID.x; // column
    uint i = gl_GlobalInvocationID.y; // row
    // Your code here: result[i][j] = a[i] + b[j], for cells inside the output.
}
