#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ROWS = 1;  // rows of the matrix
layout(constant_id = 4) const uint COLS = 1;  // columns of the matrix
layout(set = 0, binding = 0) readonly buffer A { float a[]; };         // ROWS x COLS, row-major
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };  // ROWS x COLS, row-major

void main() {
    uint i = gl_GlobalInvocationID.x;
    // Spare threads of the last workgroup have no cell.
    if (i >= ROWS * COLS) {
        return;
    }
    // Thread i takes cell i of the row-major layout: row i / COLS, column i % COLS. The 32
    // threads of a subgroup then read 32 neighbouring floats, 128 bytes that fill 4 sectors
    // (5 when they start in the middle of one, still the fewest those bytes can take), and
    // write the same way. The column walk read the same floats, but one sector each.
    uint r = i / COLS;
    result[i] = a[i] * float(r + 1);
}
