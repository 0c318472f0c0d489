#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ROWS = 1;   // rows of the matrix
layout(constant_id = 4) const uint COLS = 1;   // columns of the matrix
layout(constant_id = 5) const uint ITEMS = 1;  // cells per thread
layout(set = 0, binding = 0) readonly buffer A { float a[]; };         // ROWS x COLS, row-major
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };  // ROWS x COLS, row-major

void main() {
    // Coalesced access's answer: one cell per thread. The launch now has ITEMS times fewer
    // threads than cells, so most cells are never written. Give each thread ITEMS cells.
    uint i = gl_GlobalInvocationID.x;
    if (i >= ROWS * COLS) {
        return;
    }
    uint r = i / COLS;
    result[i] = a[i] * float(r + 1);
}
