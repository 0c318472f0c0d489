#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TILE x TILE threads
layout(constant_id = 3) const uint ROWS = 1;   // rows of a = columns of result
layout(constant_id = 4) const uint COLS = 1;   // columns of a = rows of result
layout(constant_id = 5) const uint TILE = 32;  // tile side = workgroup width = height
layout(set = 0, binding = 0) readonly buffer A { float a[]; };             // ROWS x COLS
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };  // COLS x ROWS

shared float tile[TILE][TILE];

void main() {
    uint c = gl_GlobalInvocationID.x;  // column of a
    uint r = gl_GlobalInvocationID.y;  // row of a
    // The naive transpose: right values. The read is coalesced (neighbouring threads, neighbouring
    // columns of a row), but the write is not: neighbouring threads write ROWS floats apart.
    // Go through `tile` instead.
    if (r < ROWS && c < COLS) {
        float v = a[r * COLS + c];  // neighbouring threads: neighbouring floats
        result[c * ROWS + r] = v;   // neighbouring threads: ROWS floats apart
    }
}
