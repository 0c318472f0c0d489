#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ROWS = 1;   // rows of the matrix
layout(constant_id = 4) const uint COLS = 1;   // columns of the matrix
layout(constant_id = 5) const uint ITEMS = 1;  // cells per thread
layout(set = 0, binding = 0) readonly buffer A { float a[]; };         // ROWS x COLS, row-major
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };  // ROWS x COLS, row-major

void main() {
    uint wg = gl_WorkGroupSize.x;
    uint n = ROWS * COLS;
    // The workgroup's WG x ITEMS cells are ITEMS runs of WG neighbouring cells; thread t takes
    // cell t of every run. At each load the 32 lanes of a subgroup read 32 neighbouring floats:
    // the fewest sectors, as in Coalesced access. (ITEMS cells in a row per thread would put
    // the lanes' k-th loads ITEMS floats apart.)
    uint first = gl_WorkGroupID.x * wg * ITEMS + gl_LocalInvocationID.x;

    // 1. Every load first. ITEMS is a constant, so the array lives in registers, and no load
    //    waits for another: a thread has ITEMS of them in flight at once. Cells past the end
    //    of the matrix (the last workgroup's) are not read.
    float v[ITEMS];
    for (uint k = 0; k < ITEMS; ++k) {
        uint i = first + k * wg;
        v[k] = i < n ? a[i] : 0.0;
    }

    // 2. Then the stores, each scaled by its row number plus one.
    for (uint k = 0; k < ITEMS; ++k) {
        uint i = first + k * wg;
        if (i < n) {
            result[i] = v[k] * float(i / COLS + 1);
        }
    }
}
