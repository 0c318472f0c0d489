#version 450
// Naive variant of 24-transpose-tiled: reads coalesced, writes ROWS floats apart (line 15).
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 3) const uint ROWS = 1;
layout(constant_id = 4) const uint COLS = 1;
layout(constant_id = 5) const uint TILE = 32;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

void main() {
    uint c = gl_GlobalInvocationID.x;
    uint r = gl_GlobalInvocationID.y;
    if (r < ROWS && c < COLS) {
        float v = a[r * COLS + c];
        result[c * ROWS + r] = v;
    }
}
