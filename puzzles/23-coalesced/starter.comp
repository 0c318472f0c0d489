#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ROWS = 1;  // rows of the matrix
layout(constant_id = 4) const uint COLS = 1;  // columns of the matrix
layout(set = 0, binding = 0) readonly buffer A { float a[]; };         // ROWS x COLS, row-major
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };  // ROWS x COLS, row-major

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= ROWS * COLS) {
        return;
    }
    // The column walk: thread i takes row i % ROWS, column i / ROWS. Right values, and yet
    // neighbouring threads touch floats a whole row (COLS floats) apart. Change the mapping.
    uint r = i % ROWS;
    uint c = i / ROWS;
    result[r * COLS + c] = a[r * COLS + c] * float(r + 1);
}
