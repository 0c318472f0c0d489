#version 450
// Naive variant of 23-coalesced: right values, neighbouring threads a row apart (line 14).
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ROWS = 1;
layout(constant_id = 4) const uint COLS = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= ROWS * COLS) return;
    uint r = i % ROWS;
    uint c = i / ROWS;
    result[r * COLS + c] = a[r * COLS + c] * float(r + 1);
}
