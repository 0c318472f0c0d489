#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TILE x TILE threads
layout(constant_id = 3) const uint ROWS = 1;   // rows of a = columns of result
layout(constant_id = 4) const uint COLS = 1;   // columns of a = rows of result
layout(constant_id = 5) const uint TILE = 32;  // tile side = workgroup width = height
layout(set = 0, binding = 0) readonly buffer A { float a[]; };             // ROWS x COLS
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };  // COLS x ROWS

// The tile of puzzle 24 with one spare column. Shared memory is 32 banks of 4-byte words, word w
// in bank w % 32. Cell [i][j] is word i * (TILE + 1) + j, so going down a column (i + 1) moves
// 33 words: one bank further, instead of 32 words, back to the same bank.
shared float tile[TILE][TILE + 1];

void main() {
    uint lx = gl_LocalInvocationID.x;
    uint ly = gl_LocalInvocationID.y;
    uint c0 = gl_WorkGroupID.x * TILE;  // the tile's first column of a
    uint r0 = gl_WorkGroupID.y * TILE;  // the tile's first row of a

    // 1. Read the tile row by row: the subgroup (ly fixed, lx = 0..31) reads 32 neighbouring
    //    floats of a, and stores them in row ly of the tile: words ly * 33 + lx, 32 different
    //    banks.
    if (r0 + ly < ROWS && c0 + lx < COLS) {
        tile[ly][lx] = a[(r0 + ly) * COLS + c0 + lx];
    }

    barrier();

    // 2. Write the transposed tile row by row of result, reading the tile down column ly:
    //    words lx * 33 + ly, in banks (lx + ly) % 32, all different for lx = 0..31. Without the
    //    spare column they were lx * 32 + ly, all in bank ly: 32 words one after the other
    //    from one bank, a 32-way conflict.
    if (c0 + ly < COLS && r0 + lx < ROWS) {
        result[(c0 + ly) * ROWS + r0 + lx] = tile[lx][ly];
    }
}
