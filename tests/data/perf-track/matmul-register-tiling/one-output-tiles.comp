#version 450
// Right values, but no register tiling: the thread runs the one-output tiled matmul (14-matmul)
// four times, once per cell of its 2x2 block, so every step costs 2 global reads per OUTPUT:
// 8 per thread per step, twice the limit.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 3) const uint ROWS = 1;
layout(constant_id = 5) const uint INNER = 1;
layout(constant_id = 6) const uint COLS = 1;
layout(constant_id = 4) const uint TILE = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) buffer Result { float result[]; };

shared float tileA[TILE][TILE];
shared float tileB[TILE][TILE];

void main() {
    uint lx = gl_LocalInvocationID.x;
    uint ly = gl_LocalInvocationID.y;
    for (uint q = 0; q < 4; ++q) {
        uint r = gl_WorkGroupID.y * TILE * 2 + ly + (q / 2) * TILE;
        uint c = gl_WorkGroupID.x * TILE * 2 + lx + (q % 2) * TILE;
        float acc = 0.0;
        for (uint k0 = 0; k0 < INNER; k0 += TILE) {
            tileA[ly][lx] = (r < ROWS && k0 + lx < INNER) ? a[r * INNER + k0 + lx] : 0.0;
            tileB[ly][lx] = (k0 + ly < INNER && c < COLS) ? b[(k0 + ly) * COLS + c] : 0.0;
            barrier();
            for (uint k = 0; k < TILE; ++k) {
                acc += tileA[ly][k] * tileB[k][lx];
            }
            barrier();
        }
        if (r < ROWS && c < COLS) result[r * COLS + c] = acc;
    }
}
