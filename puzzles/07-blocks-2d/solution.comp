#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;
// The matrix is SIZE x SIZE, stored row by row.
layout(constant_id = 3) const uint SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

void main() {
    uvec2 local = gl_LocalInvocationID.xy; // position inside the workgroup
    uvec2 group = gl_WorkGroupID.xy;       // which workgroup, in 2D

    // The Blocks formula, applied to each axis separately. Workgroups need not be square, so
    // x uses the workgroup's width and y its height. (The result equals gl_GlobalInvocationID.xy.)
    uint c = group.x * gl_WorkGroupSize.x + local.x; // column
    uint r = group.y * gl_WorkGroupSize.y + local.y; // row

    // Rounding the grid up leaves spare threads on the right AND at the bottom.
    if (r < SIZE && c < SIZE) {
        uint idx = r * SIZE + c;
        result[idx] = a[idx] + 10.0;
    }
}
