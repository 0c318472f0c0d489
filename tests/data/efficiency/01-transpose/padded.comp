#version 450
// Through a shared tile padded to 33 columns: rows of global memory both ways, and the tile's
// columns spread over all 32 banks.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 3) const uint N = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

shared float tile[32][33]; // one spare column: a column's words fall in 32 banks

void main() {
    uint tx = gl_LocalInvocationID.x;
    uint ty = gl_LocalInvocationID.y;
    tile[ty][tx] = a[gl_GlobalInvocationID.y * N + gl_GlobalInvocationID.x];
    barrier();
    uint ox = gl_WorkGroupID.y * 32 + tx;
    uint oy = gl_WorkGroupID.x * 32 + ty;
    result[oy * N + ox] = tile[tx][ty];
}
