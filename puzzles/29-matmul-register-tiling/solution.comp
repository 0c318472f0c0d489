#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TILE x TILE threads
layout(constant_id = 3) const uint ROWS = 1;   // rows of a and of result
layout(constant_id = 5) const uint INNER = 1;  // columns of a = rows of b: k runs along it
layout(constant_id = 6) const uint COLS = 1;   // columns of b and of result
layout(constant_id = 4) const uint TILE = 1;   // workgroup width = height
layout(set = 0, binding = 0) readonly buffer A { float a[]; };   // ROWS x INNER, row-major
layout(set = 0, binding = 1) readonly buffer B { float b[]; };   // INNER x COLS, row-major
layout(set = 0, binding = 2) buffer Result { float result[]; };  // ROWS x COLS, row-major

// One step along k: the 2*TILE rows of a and the 2*TILE columns of b that the workgroup's block
// of result needs, TILE values deep.
shared float tileA[TILE * 2][TILE];  // [row in block][k in step]
shared float tileB[TILE][TILE * 2];  // [k in step][column in block]

void main() {
    uint lx = gl_LocalInvocationID.x;
    uint ly = gl_LocalInvocationID.y;
    // The workgroup computes a 2*TILE x 2*TILE block of result. Thread (lx, ly) owns the four
    // cells (r0, c0), (r0, c1), (r1, c0), (r1, c1): rows ly and ly + TILE, columns lx and
    // lx + TILE of the block. They are TILE apart rather than side by side, so that in every
    // load and store neighbouring threads still touch neighbouring addresses.
    uint r0 = gl_WorkGroupID.y * TILE * 2 + ly, r1 = r0 + TILE;
    uint c0 = gl_WorkGroupID.x * TILE * 2 + lx, c1 = c0 + TILE;

    // Four sums in registers. Each value a thread takes from a tile is used twice: tileA's row
    // value with both columns, tileB's column value with both rows.
    float acc00 = 0.0, acc01 = 0.0, acc10 = 0.0, acc11 = 0.0;

    for (uint k0 = 0; k0 < INNER; k0 += TILE) {
        // 4 global reads per thread per step, for 4 outputs: 1 per output, where the tiled matmul
        // with one output per thread needs 2 (one of a and one of b for its single cell).
        // Outside the matrices: 0, so partial tiles need no special case below.
        uint k = k0 + lx;
        tileA[ly][lx] = (r0 < ROWS && k < INNER) ? a[r0 * INNER + k] : 0.0;
        tileA[ly + TILE][lx] = (r1 < ROWS && k < INNER) ? a[r1 * INNER + k] : 0.0;
        k = k0 + ly;
        tileB[ly][lx] = (k < INNER && c0 < COLS) ? b[k * COLS + c0] : 0.0;
        tileB[ly][lx + TILE] = (k < INNER && c1 < COLS) ? b[k * COLS + c1] : 0.0;
        barrier();  // both tiles complete before anyone multiplies

        // 4 shared reads feed 4 multiply-adds (the one-output kernel: 2 reads per multiply-add).
        for (uint j = 0; j < TILE; ++j) {
            float x0 = tileA[ly][j], x1 = tileA[ly + TILE][j];
            float y0 = tileB[j][lx], y1 = tileB[j][lx + TILE];
            acc00 += x0 * y0;
            acc01 += x0 * y1;
            acc10 += x1 * y0;
            acc11 += x1 * y1;
        }
        barrier();  // nobody overwrites the tiles while a slower thread still reads them
    }

    // Up to four writes, each guarded: the block may stick out of the matrix.
    if (r0 < ROWS && c0 < COLS) result[r0 * COLS + c0] = acc00;
    if (r0 < ROWS && c1 < COLS) result[r0 * COLS + c1] = acc01;
    if (r1 < ROWS && c0 < COLS) result[r1 * COLS + c0] = acc10;
    if (r1 < ROWS && c1 < COLS) result[r1 * COLS + c1] = acc11;
}
