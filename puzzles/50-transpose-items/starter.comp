#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TILE x (TILE / PER) threads
layout(constant_id = 3) const uint ROWS = 1;   // rows of a = columns of result
layout(constant_id = 4) const uint COLS = 1;   // columns of a = rows of result
layout(constant_id = 5) const uint TILE = 32;  // tile side = workgroup width
layout(constant_id = 6) const uint PER = 1;    // tile rows per thread: TILE / workgroup height
layout(set = 0, binding = 0) readonly buffer A { float a[]; };             // ROWS x COLS
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };  // COLS x ROWS

// Puzzle 25's padded tile: no bank conflicts down a column.
shared float tile[TILE][TILE + 1];

void main() {
    uint lx = gl_LocalInvocationID.x;
    uint ly = gl_LocalInvocationID.y;
    uint step = gl_WorkGroupSize.y;     // TILE / PER rows of threads
    uint c0 = gl_WorkGroupID.x * TILE;  // the tile's first column of a
    uint r0 = gl_WorkGroupID.y * TILE;  // the tile's first row of a

    // Your code here, in three parts:
    // 1. For k = 0 .. PER - 1: row r = r0 + ly + k * step of a, column c0 + lx (0 past the
    //    matrix's edge), into float v[PER]: all PER reads first, then a second loop stores v[k]
    //    in tile[ly + k * step][lx].
    // 2. barrier();
    // 3. For k = 0 .. PER - 1: result's row c = c0 + ly + k * step, column r0 + lx, from
    //    tile[lx][ly + k * step], where c < COLS and r0 + lx < ROWS.
}
