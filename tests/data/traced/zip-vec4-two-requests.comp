// puzzle: zip
// expect: clean
// mistake: none: a vec4 of a and one of b are two reads, within the puzzle's global_reads = 2,
// though they move eight floats (limits count requests, docs/puzzle-format.md)
#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 0) readonly buffer A4 { vec4 a4[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 1) readonly buffer B4 { vec4 b4[]; };
layout(set = 0, binding = 2) buffer Result { float result[]; };
layout(set = 0, binding = 2) buffer Result4 { vec4 result4[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = a.length(), whole = n / 4; // a4.length() is whole too: vec4s that fit entirely
    // Threads below n / 4 take a vec4 each; the tail's floats go to their own threads, which
    // have no vec4 to do (i < n / 4 <= 4 * (n / 4) <= i cannot both hold).
    if (i < whole) {
        result4[i] = a4[i] + b4[i];
    }
    if (i >= 4 * whole && i < n) {
        result[i] = a[i] + b[i];
    }
}
