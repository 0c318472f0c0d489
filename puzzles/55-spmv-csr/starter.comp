#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ROWS = 1;  // rows of the matrix: result has ROWS numbers

// The matrix in CSR: the nonzeros row by row, each with its column, and where each row starts.
layout(set = 0, binding = 0) readonly buffer Vals { float vals[]; };      // nnz values
layout(set = 0, binding = 1) readonly buffer Colidx { uint colidx[]; };   // nnz columns
layout(set = 0, binding = 2) readonly buffer Rowptr { uint rowptr[]; };   // ROWS + 1 offsets
layout(set = 0, binding = 3) readonly buffer X { float x[]; };            // one per column
layout(set = 0, binding = 4) writeonly buffer Result { float result[]; }; // one per row

void main() {
    uint row = gl_GlobalInvocationID.x;  // one thread per row
    // Your code here: result[row] = the sum of vals[e] * x[colidx[e]] over the row's entries,
    // e from rowptr[row] to rowptr[row + 1] - 1.
}
