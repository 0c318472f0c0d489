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
    uint row = gl_GlobalInvocationID.x;
    // The last workgroup may have more threads than rows are left.
    if (row < ROWS) {
        // Row `row` owns entries start .. end - 1 of vals and colidx. Read both ends once, into
        // registers: a loop written `e < rowptr[row + 1]` reads it again at every step.
        uint start = rowptr[row];
        uint end = rowptr[row + 1];
        float sum = 0.0;
        for (uint e = start; e < end; e++) {
            sum += vals[e] * x[colidx[e]];  // each entry once: its value, its column, x there
        }
        // An empty row (start == end) is 0, and is written all the same: result starts unwritten.
        result[row] = sum;
    }
}
