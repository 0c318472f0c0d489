#version 450
// Subgroup operations (core in Vulkan 1.1): basic for the gl_Subgroup* ids and subgroupElect(),
// arithmetic for subgroupAdd.
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
    // The workgroup's rows: first .. last - 1 (the last workgroup may have fewer).
    uint first = gl_WorkGroupID.x * ROWS_PER_WG;
    uint last = min(first + ROWS_PER_WG, ROWS);

    // One row per subgroup: subgroup s takes rows first + s, first + s + S, ... (S subgroups in
    // the workgroup: 8 of 8 lanes at WG = 64 on lavapipe, 2 of 32 lanes on NVIDIA). The loop's
    // condition is the same for every lane of a subgroup, so subgroupAdd below sees all of them.
    uint lanes = gl_SubgroupSize;  // 8 on lavapipe, 32 on NVIDIA, 64 on some AMD: never write 32
    uint lane = gl_SubgroupInvocationID;
    for (uint r = first + gl_SubgroupID; r < last; r += gl_NumSubgroups) {
        // Lane l takes columns l, l + lanes, l + 2 * lanes, ...: at each step the subgroup
        // reads `lanes` neighbouring floats of row r, the fewest sectors they fit in, and the
        // same neighbouring floats of x.
        float partial = 0.0;
        for (uint c = lane; c < COLS; c += lanes) {
            partial += m[r * COLS + c] * x[c];
        }
        // The lanes' partial sums, added in registers: every lane gets the row's total.
        float total = subgroupAdd(partial);
        if (subgroupElect()) {
            result[r] = total;  // one lane writes it
        }
    }
}
