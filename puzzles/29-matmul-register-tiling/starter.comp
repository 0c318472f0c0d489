#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TILE x TILE threads
layout(constant_id = 3) const uint ROWS = 1;   // rows of a and of result
layout(constant_id = 5) const uint INNER = 1;  // columns of a = rows of b: k runs along it
layout(constant_id = 6) const uint COLS = 1;   // columns of b and of result
layout(constant_id = 4) const uint TILE = 1;   // workgroup width = height
layout(set = 0, binding = 0) readonly buffer A { float a[]; };   // ROWS x INNER, row-major
layout(set = 0, binding = 1) readonly buffer B { float b[]; };   // INNER x COLS, row-major
layout(set = 0, binding = 2) buffer Result { float result[]; };  // ROWS x COLS, row-major

shared float tileA[TILE * 2][TILE];  // [row in block][k in step]
shared float tileB[TILE][TILE * 2];  // [k in step][column in block]

void main() {
    uint lx = gl_LocalInvocationID.x;
    uint ly = gl_LocalInvocationID.y;
    // The workgroup's block is 2*TILE x 2*TILE; this thread owns rows r0, r1 and columns c0, c1.
    uint r0 = gl_WorkGroupID.y * TILE * 2 + ly, r1 = r0 + TILE;
    uint c0 = gl_WorkGroupID.x * TILE * 2 + lx, c1 = c0 + TILE;
    // Your code here: four sums, one step along k per TILE, 4 global reads per step.
}
