#version 450
// Workgroups are TILE x TILE threads.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 3) const uint SIZE = 1;  // matrix side
layout(constant_id = 4) const uint TILE = 1;  // tile side = workgroup width = height

layout(set = 0, binding = 0) readonly buffer A { float a[]; };   // SIZE x SIZE, row-major
layout(set = 0, binding = 1) readonly buffer B { float b[]; };   // SIZE x SIZE, row-major
layout(set = 0, binding = 2) buffer Result { float result[]; };  // SIZE x SIZE, row-major

shared float tileA[TILE][TILE];  // [row in tile][column in tile]
shared float tileB[TILE][TILE];

void main() {
    uint c = gl_GlobalInvocationID.x;  // output column
    uint r = gl_GlobalInvocationID.y;  // output row
    uint lx = gl_LocalInvocationID.x;
    uint ly = gl_LocalInvocationID.y;
    // Your code here: walk k0 = 0, TILE, 2*TILE, ...: load one tile of a and one of b,
    // barrier(), accumulate, barrier(); finally write result[r][c].
}
