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

// The workgroup's tile with its halo, and a copy of the filter.
shared float tile[TY + KH - 1][TX + KW - 1];
shared float kern[KH][KW];

void main() {
    uint row = gl_GlobalInvocationID.y;
    uint col = gl_GlobalInvocationID.x;
    // Your code here: load the tile (0 outside the image) and the filter, barrier(), then
    // result[row * COLS + col] = the sum of tile[ty + i][tx + j] * kern[i][j].
}
