#version 450
// Each workgroup is a line of threads in x (its y size is 1).
layout(local_size_x_id = 0) in;
// Columns of the matrix, and the length of the shared array (the workgroup size).
layout(constant_id = 3) const uint COLS = 1;
layout(constant_id = 4) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };   // rows x COLS, row-major
layout(set = 0, binding = 1) buffer Result { float result[]; };  // one cell per row

shared float cache[SHARED_SIZE];

void main() {
    uint row = gl_WorkGroupID.y;
    uint c = gl_LocalInvocationID.x;
    // Your code here: load a[row][c], sum the row as a tree, thread 0 writes result[row].
}
