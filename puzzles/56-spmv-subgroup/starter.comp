#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ROWS = 1;         // rows of the matrix: result has ROWS numbers
layout(constant_id = 4) const uint ROWS_PER_WG = 1;  // rows each workgroup owns

layout(set = 0, binding = 0) readonly buffer Vals { float vals[]; };      // nnz values
layout(set = 0, binding = 1) readonly buffer Colidx { uint colidx[]; };   // nnz columns
layout(set = 0, binding = 2) readonly buffer Rowptr { uint rowptr[]; };   // ROWS + 1 offsets
layout(set = 0, binding = 3) readonly buffer X { float x[]; };            // one per column
layout(set = 0, binding = 4) writeonly buffer Result { float result[]; }; // one per row

void main() {
    uint first = gl_WorkGroupID.x * ROWS_PER_WG;  // this workgroup's first row
    // Your code here: each subgroup takes rows of first .. first + ROWS_PER_WG - 1 (and < ROWS);
    // its lanes stride over the row's entries, subgroupAdd sums them, one lane writes result.
}
