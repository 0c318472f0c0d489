#version 450
// Square workgroups of WG x WG threads; each computes a WG x WG tile of the grid.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 3) const uint ROWS = 1;
layout(constant_id = 4) const uint COLS = 1;
layout(constant_id = 5) const uint SHARED_SIZE = 1;  // (WG + 2) * (WG + 2): the tile and its halo

layout(set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

// The tile plus a ring of one cell around it (the halo), row by row: (WG + 2) cells a row.
shared float tile[SHARED_SIZE];

void main() {
    uint w = gl_WorkGroupSize.x;  // = gl_WorkGroupSize.y
    uint r0 = gl_WorkGroupID.y * w;  // the grid cell of the tile's top-left corner
    uint c0 = gl_WorkGroupID.x * w;
    // Your code here: 1. load the (w + 2) x (w + 2) cells of the tile and its halo into `tile`
    // (0 outside the grid), 2. barrier(), 3. result = the mean of your cell and its 4
    // neighbours, read from the tile.
}
