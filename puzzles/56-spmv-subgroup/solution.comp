#version 450
// Subgroup operations (core in Vulkan 1.1): basic for the gl_Subgroup* ids and subgroupElect(),
// arithmetic for subgroupAdd.
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
    uint wg = gl_WorkGroupSize.x;
    uint size = gl_SubgroupSize;  // 8 on lavapipe, 32 on NVIDIA, 64 on some AMD: never write 32
    uint lane = gl_SubgroupInvocationID;
    // The subgroups of the workgroup, the last one counted even when it is partly filled, and the
    // lanes of mine: all of them, but in the last subgroup of a workgroup whose size is not a
    // multiple of the subgroup's (36 threads in subgroups of 8: 8, 8, 8, 8 and 4 lanes).
    uint teams = (wg + size - 1) / size;
    uint lanes = min(size, wg - gl_SubgroupID * size);

    // This workgroup owns rows first .. last - 1; the last workgroup may own fewer.
    uint first = gl_WorkGroupID.x * ROWS_PER_WG;
    uint last = min(first + ROWS_PER_WG, ROWS);
    // Subgroup s takes rows first + s, first + s + teams, ...: one row each when there are
    // enough subgroups, several when there are fewer subgroups than rows (one subgroup of 32 for
    // 10 rows), none for a subgroup past the last row. `row` is the same in every lane of a
    // subgroup, so the whole subgroup reaches subgroupAdd together.
    for (uint row = first + gl_SubgroupID; row < last; row += teams) {
        uint start = rowptr[row];
        uint end = rowptr[row + 1];
        // The lanes stride over the row together: at each step they read `lanes` neighbouring
        // entries of vals and colidx (coalesced), and a row of 300 takes ceil(300 / lanes)
        // steps instead of 300 in one thread.
        float sum = 0.0;
        for (uint e = start + lane; e < end; e += lanes) {
            sum += vals[e] * x[colidx[e]];
        }
        // The lanes' partial sums, added in hardware; every lane gets the row's total.
        float total = subgroupAdd(sum);
        if (subgroupElect()) {
            result[row] = total;  // one lane writes it (an empty row's 0 too)
        }
    }
}
