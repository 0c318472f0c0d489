#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TX x TY threads
layout(constant_id = 3) const uint ROWS = 1;  // image height
layout(constant_id = 4) const uint COLS = 1;  // image width
layout(constant_id = 5) const uint KH = 1;    // filter height, odd
layout(constant_id = 6) const uint KW = 1;    // filter width, odd
layout(constant_id = 7) const uint TX = 1;    // workgroup width
layout(constant_id = 8) const uint TY = 1;    // workgroup height

layout(set = 0, binding = 0) readonly buffer Image { float image[]; };      // ROWS x COLS
layout(set = 0, binding = 1) readonly buffer Weights { float weights[]; };  // KH x KW: the filter
layout(set = 0, binding = 2) writeonly buffer Result { float result[]; };  // ROWS x COLS

// The workgroup's TY x TX outputs need the cells from KH/2 rows above them to KH/2 rows below,
// and KW/2 columns on either side: a (TY + KH - 1) x (TX + KW - 1) tile, its halo included.
shared float tile[TY + KH - 1][TX + KW - 1];
shared float kern[KH][KW];

void main() {
    uint tx = gl_LocalInvocationID.x;
    uint ty = gl_LocalInvocationID.y;
    // Image cell of the tile's top left corner: above or left of the image (negative) at the
    // top and left edges.
    int top = int(gl_WorkGroupID.y * TY) - int(KH / 2);
    int left = int(gl_WorkGroupID.x * TX) - int(KW / 2);

    // 1. The tile, every cell loaded once, by the workgroup laid over it again and again:
    //    thread (tx, ty) takes tile cells (ty + p*TY, tx + q*TX). Neighbouring threads read
    //    neighbouring cells of a row. A cell outside the image is 0 (the "same" padding) and
    //    is not read.
    for (uint i = ty; i < TY + KH - 1; i += TY) {
        for (uint j = tx; j < TX + KW - 1; j += TX) {
            int r = top + int(i);
            int c = left + int(j);
            float v = 0.0;
            if (r >= 0 && r < int(ROWS) && c >= 0 && c < int(COLS)) {
                v = image[r * int(COLS) + c];
            }
            tile[i][j] = v;
        }
    }
    // 2. The filter, every value loaded once (all of it, by the first KH*KW threads).
    for (uint e = ty * TX + tx; e < KH * KW; e += TX * TY) {
        kern[e / KW][e % KW] = weights[e];
    }
    // Every thread is about to read cells that others loaded.
    barrier();

    // 3. Output (row, col) weighs the image cells (row - KH/2 + i, col - KW/2 + j), which are
    //    tile cells (ty + i, tx + j): KH * KW reads of shared memory, none of global memory.
    uint row = gl_GlobalInvocationID.y;
    uint col = gl_GlobalInvocationID.x;
    if (row < ROWS && col < COLS) {
        float acc = 0.0;
        for (uint i = 0; i < KH; ++i) {
            for (uint j = 0; j < KW; ++j) {
                acc += tile[ty + i][tx + j] * kern[i][j];
            }
        }
        result[row * COLS + col] = acc;
    }
}
