#version 450
// Wrong on purpose (tests/cli/algorithms_track_cli_test.cpp): reads the cell and its four
// neighbours straight from src, five global reads per cell. Right values; over the read limit.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 3) const uint ROWS = 1;
layout(constant_id = 4) const uint COLS = 1;

layout(set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

float at(uint r, uint c) {
    return (r < ROWS && c < COLS) ? src[r * COLS + c] : 0.0;
}

void main() {
    uint c = gl_GlobalInvocationID.x;
    uint r = gl_GlobalInvocationID.y;
    if (r < ROWS && c < COLS) {
        result[r * COLS + c] = (at(r, c) + at(r - 1, c) + at(r + 1, c) + at(r, c - 1) + at(r, c + 1)) / 5.0;
    }
}
