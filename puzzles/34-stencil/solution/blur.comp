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
    uint side = w + 2;            // a row of the tile with its halo
    uint r0 = gl_WorkGroupID.y * w;  // the grid cell of the tile's top-left corner
    uint c0 = gl_WorkGroupID.x * w;

    // 1. Load the tile and its halo: (w + 2)^2 cells, more than the w^2 threads, so the threads
    //    take them in turns, w * w cells at a time, in row order (neighbouring threads, neighbouring
    //    addresses). Tile cell (ty, tx) is grid cell (r0 + ty - 1, c0 + tx - 1); a cell outside
    //    the grid is 0, as the blur counts it. The subtraction wraps below 0 for the row and
    //    column before the grid: a uint that large is >= ROWS (or COLS), outside as well.
    //    Every grid cell is read by one thread of its own tile, and once more by each neighbouring
    //    tile whose halo it is in: far fewer reads than the 5 per cell of reading the neighbours
    //    straight from src.
    for (uint k = gl_LocalInvocationIndex; k < side * side; k += w * w) {
        uint r = r0 + k / side - 1;
        uint c = c0 + k % side - 1;
        tile[k] = (r < ROWS && c < COLS) ? src[r * COLS + c] : 0.0;
    }
    barrier();  // the whole tile is in place before anyone reads a neighbour

    // 2. Each thread's cell, at (ly + 1, lx + 1) in the tile, and its four neighbours.
    uint ly = gl_LocalInvocationID.y;
    uint lx = gl_LocalInvocationID.x;
    uint at = (ly + 1) * side + lx + 1;
    float sum = tile[at] + tile[at - side] + tile[at + side] + tile[at - 1] + tile[at + 1];
    uint r = r0 + ly;
    uint c = c0 + lx;
    if (r < ROWS && c < COLS) {
        result[r * COLS + c] = sum / 5.0;
    }
}
