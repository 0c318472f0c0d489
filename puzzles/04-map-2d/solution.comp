#version 450
// A 2D grid of threads: x and y sizes come from the test case.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
// The matrix is SIZE x SIZE, stored row by row.
layout(constant_id = 3) const uint SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

void main() {
    // x runs along a row (it picks the column), y runs down the matrix (it picks the row).
    uint c = gl_GlobalInvocationID.x;
    uint r = gl_GlobalInvocationID.y;

    // The grid is larger than the matrix in both directions, so both coordinates need a guard.
    // Checking only the flat index (r * SIZE + c < SIZE * SIZE) would NOT be enough: a thread
    // with c = SIZE in row 0 would pass it and also write the first cell of row 1, a cell that
    // another thread owns. Here it would store the same value, so the output would look right,
    // but two threads writing one cell is a race that a less forgiving task would expose.
    if (r < SIZE && c < SIZE) {
        // Row-major layout: skip r whole rows of SIZE cells, then c cells into the row.
        uint idx = r * SIZE + c;
        result[idx] = a[idx] + 10.0;
    }
}
