// puzzle: coalesced
// expect: out of bounds
// mistake: reads and writes whole vec4s up to the end, where a matrix of 5 x 37 (185 floats, not
// a multiple of 4) leaves one float for the last vec4: its .y to .w lie past the buffer
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ROWS = 1;
layout(constant_id = 4) const uint COLS = 1;
layout(set = 0, binding = 0) readonly buffer A { vec4 a4[]; };
layout(set = 0, binding = 1) writeonly buffer Result { vec4 result4[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (4 * i < ROWS * COLS) {
        uvec4 cell = 4 * i + uvec4(0, 1, 2, 3);
        result4[i] = a4[i] * vec4(cell / COLS + 1u);
    }
}
