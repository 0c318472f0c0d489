#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;                    // WG threads, a multiple of 64
layout(constant_id = 3) const uint ROWS = 1;        // rows of m and of result
layout(constant_id = 4) const uint COLS = 1;        // columns of m = length of x
layout(constant_id = 5) const uint ROWS_PER_WG = 1; // rows of each workgroup

layout(set = 0, binding = 0) readonly buffer M { float m[]; };  // ROWS x COLS, row-major
layout(set = 0, binding = 1) readonly buffer X { float x[]; };  // COLS
layout(set = 0, binding = 2) writeonly buffer Result { float result[]; };  // ROWS

void main() {
    // This workgroup's rows: first .. last - 1.
    uint first = gl_WorkGroupID.x * ROWS_PER_WG;
    uint last = min(first + ROWS_PER_WG, ROWS);
    // Your code here: one row per subgroup (gl_SubgroupID of gl_NumSubgroups), its lanes
    // (gl_SubgroupInvocationID of gl_SubgroupSize) on neighbouring columns, then subgroupAdd.
}
