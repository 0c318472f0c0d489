#version 450
// Another answer to 25-transpose-padded: no spare column, the cells of each row rotated
// (swizzled) instead. Row i of the tile keeps cell j at column j ^ i, so column j of the tile is
// spread over 32 different banks. Passes every limit.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 3) const uint ROWS = 1;
layout(constant_id = 4) const uint COLS = 1;
layout(constant_id = 5) const uint TILE = 32;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

shared float tile[TILE][TILE];

void main() {
    uint lx = gl_LocalInvocationID.x;
    uint ly = gl_LocalInvocationID.y;
    uint c0 = gl_WorkGroupID.x * TILE;
    uint r0 = gl_WorkGroupID.y * TILE;
    if (r0 + ly < ROWS && c0 + lx < COLS) {
        tile[ly][lx ^ ly] = a[(r0 + ly) * COLS + c0 + lx];
    }
    barrier();
    if (c0 + ly < COLS && r0 + lx < ROWS) {
        result[(c0 + ly) * ROWS + r0 + lx] = tile[lx][ly ^ lx];
    }
}
