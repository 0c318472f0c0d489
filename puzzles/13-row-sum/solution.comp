#version 450
// Each workgroup is a line of threads in x (its y size is 1).
layout(local_size_x_id = 0) in;
// Columns of the matrix, and the length of the shared array (the workgroup size).
layout(constant_id = 3) const uint COLS = 1;
layout(constant_id = 4) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };   // rows x COLS, row-major
layout(set = 0, binding = 1) buffer Result { float result[]; };  // one cell per row

shared float cache[SHARED_SIZE];

void main() {
    // The launch maps the data directly: workgroups go down the rows, threads across a row.
    uint row = gl_WorkGroupID.y;
    uint c = gl_LocalInvocationID.x;

    // 1. This thread's cells of the row: columns c, c + WG, c + 2 WG, ... (one read when the row
    //    fits in the workgroup). Spare threads keep 0 so they do not disturb the sum.
    float v = 0.0;
    for (uint col = c; col < COLS; col += gl_WorkGroupSize.x) {
        v += a[row * COLS + col];
    }
    cache[c] = v;
    barrier(); // everyone's cell is in place before the tree reads them

    // 2. Tree reduction, as in Block sum: fold the upper part of the remaining cells onto the
    //    lower part (stride rounded up for odd counts), one barrier per round. The barrier must
    //    be inside the loop: round r + 1 reads what other threads wrote in round r.
    for (uint remaining = gl_WorkGroupSize.x; remaining > 1;) {
        uint stride = (remaining + 1) / 2;
        if (c + stride < remaining) {
            cache[c] += cache[c + stride];
        }
        barrier();
        remaining = stride;
    }

    // 3. One write per row.
    if (c == 0) {
        result[row] = cache[0];
    }
}
