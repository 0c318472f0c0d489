#version 450
// Through a shared tile: both global accesses are rows, but the tile is read down a column, so
// every lane of a subgroup hits the same bank.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 3) const uint N = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

shared float tile[32][32];

void main() {
    uint tx = gl_LocalInvocationID.x;
    uint ty = gl_LocalInvocationID.y;
    tile[ty][tx] = a[gl_GlobalInvocationID.y * N + gl_GlobalInvocationID.x];
    barrier();
    uint ox = gl_WorkGroupID.y * 32 + tx;
    uint oy = gl_WorkGroupID.x * 32 + ty;
    result[oy * N + ox] = tile[tx][ty];
}
