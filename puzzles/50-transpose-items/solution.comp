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

    // 1. Thread (lx, ly) moves rows ly, ly + step, ... of the tile: PER of them. Its PER reads
    //    come first, into registers: none waits for another, so the thread can have PER loads
    //    in flight at once. Each row is still read by one subgroup of 32
    //    neighbouring lanes: coalesced. Cells past the matrix's edge hold 0 and are never
    //    written out.
    float v[PER];
    for (uint k = 0; k < PER; ++k) {
        uint r = r0 + ly + k * step;
        v[k] = r < ROWS && c0 + lx < COLS ? a[r * COLS + c0 + lx] : 0.0;
    }
    for (uint k = 0; k < PER; ++k) {
        tile[ly + k * step][lx] = v[k];
    }

    barrier();  // the whole tile is in shared memory

    // 2. The same rows of result: column ly + k * step of the tile, down the padded column.
    for (uint k = 0; k < PER; ++k) {
        v[k] = tile[lx][ly + k * step];
    }
    for (uint k = 0; k < PER; ++k) {
        uint c = c0 + ly + k * step;
        if (c < COLS && r0 + lx < ROWS) {
            result[c * ROWS + r0 + lx] = v[k];
        }
    }
}
