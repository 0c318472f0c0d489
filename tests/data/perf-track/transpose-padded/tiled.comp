#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TILE x TILE threads
layout(constant_id = 3) const uint ROWS = 1;   // rows of a = columns of result
layout(constant_id = 4) const uint COLS = 1;   // columns of a = rows of result
layout(constant_id = 5) const uint TILE = 32;  // tile side = workgroup width = height
layout(set = 0, binding = 0) readonly buffer A { float a[]; };             // ROWS x COLS
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };  // COLS x ROWS

// One tile of a, kept in shared memory so that it can be read back in another order.
shared float tile[TILE][TILE];  // [row of a - r0][column of a - c0]

void main() {
    uint lx = gl_LocalInvocationID.x;
    uint ly = gl_LocalInvocationID.y;
    uint c0 = gl_WorkGroupID.x * TILE;  // the tile's first column of a
    uint r0 = gl_WorkGroupID.y * TILE;  // the tile's first row of a

    // 1. Read the tile row by row. A subgroup is 32 consecutive threads: one row of the
    //    workgroup (ly fixed, lx = 0..31). They read a[r0 + ly][c0 .. c0 + 31]: 32 neighbouring
    //    floats, the fewest sectors.
    if (r0 + ly < ROWS && c0 + lx < COLS) {
        tile[ly][lx] = a[(r0 + ly) * COLS + c0 + lx];
    }

    // Every cell of the tile must be in place before anyone reads a cell another thread wrote.
    barrier();

    // 2. Write the transposed tile, row by row of *result*. Row c0 + ly of result is column
    //    c0 + ly of a; its cells r0 .. r0 + 31 are a[r0 + lx][c0 + ly] = tile[lx][ly]. The
    //    subgroup writes 32 neighbouring floats of result: the fewest sectors again. The
    //    transposition happens in shared memory, where reading down a column costs no sectors.
    if (c0 + ly < COLS && r0 + lx < ROWS) {
        result[(c0 + ly) * ROWS + r0 + lx] = tile[lx][ly];
    }
}
