// puzzle: coalesced
// expect: out of bounds
// mistake: a guard one vec4 too generous (<= n / 4): thread n / 4 loads a vec4 that lies past the
// end of a (wholly where n is a multiple of 4); its stores stay guarded
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ROWS = 1;
layout(constant_id = 4) const uint COLS = 1;
layout(set = 0, binding = 0) readonly buffer A { vec4 a4[]; };
layout(set = 0, binding = 1) writeonly buffer Result { vec4 result4[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = ROWS * COLS;
    if (i <= n / 4) {
        vec4 v = a4[i];
        uvec4 cell = 4 * i + uvec4(0, 1, 2, 3);
        if (4 * i + 4 <= n) {
            result4[i] = v * vec4(cell / COLS + 1u);
        } else {
            for (uint k = 0; 4 * i + k < n; ++k) { // the tail's floats, one by one
                result4[i][k] = v[k] * float(cell[k] / COLS + 1u);
            }
        }
    }
}
