#version 450
// Naive variant of 23-coalesced: right values, each thread takes K consecutive cells
// (i * K + j), so neighbouring threads are K floats apart (line 17).
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ROWS = 1;
layout(constant_id = 4) const uint COLS = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

const uint K = 4;

void main() {
    uint i = gl_GlobalInvocationID.x;
    for (uint j = 0; j < K; ++j) {
        uint e = i * K + j;
        if (e < ROWS * COLS) {
            result[e] = a[e] * float(e / COLS + 1);
        }
    }
}
