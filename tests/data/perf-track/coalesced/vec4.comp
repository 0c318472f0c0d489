// The official solution read and written four floats at a time (issue 53): a vec4 view of each
// buffer for the whole part, a float view of the same binding for the tail. Passes every case.
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ROWS = 1;  // rows of the matrix
layout(constant_id = 4) const uint COLS = 1;  // columns of the matrix
// Each buffer twice, over the same memory: as vec4s for the whole part, as floats for the tail.
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 0) readonly buffer A4 { vec4 a4[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };
layout(set = 0, binding = 1) writeonly buffer Result4 { vec4 result4[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = ROWS * COLS;
    // Thread i takes cells 4i to 4i + 3: one 16-byte load and one 16-byte store. The 32 lanes
    // of a subgroup read 512 neighbouring bytes, 16 sectors: as coalesced as a float each, in a
    // quarter of the requests (the spare three quarters of the threads do nothing).
    if (4 * i + 4 <= n) {
        uvec4 cell = 4 * i + uvec4(0, 1, 2, 3);
        result4[i] = a4[i] * vec4(cell / COLS + 1u);
    } else if (4 * i < n) {
        // The tail, where n is not a multiple of 4: a whole vec4 here would run past the end.
        for (uint c = 4 * i; c < n; ++c) {
            result[c] = a[c] * float(c / COLS + 1u);
        }
    }
}
