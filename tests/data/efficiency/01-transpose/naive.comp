#version 450
// The naive transpose: reads a row of `a` (coalesced), writes a column of `result` (each lane
// of a subgroup in its own sector).
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 3) const uint N = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

void main() {
    uint x = gl_GlobalInvocationID.x;
    uint y = gl_GlobalInvocationID.y;
    result[x * N + y] = a[y * N + x];
}
