#version 450
// FFT: workgroup r transforms row r of x, LEN complex numbers stored as pairs of floats (re, im),
// with the radix-2 Stockham algorithm in shared memory, and writes the LEN results the same way.

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint LEN = 1;  // complex numbers per row, a power of two

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

// Two rows of LEN complex numbers: each stage reads one and writes the other (ping-pong).
shared vec2 buf[2][LEN];

// (a.x + i a.y) * (b.x + i b.y)
vec2 complexMul(vec2 a, vec2 b) {
    return vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint row = gl_WorkGroupID.x * 2u * LEN;  // where the row starts in x: 2 floats a number
    const float PI = 3.14159265358979;

    // Your code here:
    // 1. load the row into buf[0] (number j: x[row + 2j], x[row + 2j + 1]); barrier();
    // 2. for span = 1, 2, 4, ... < LEN: the LEN / 2 butterflies of the stage, from buf[src] into
    //    buf[1 - src]; barrier(); swap src;
    // 3. write buf[src] to result, as pairs of floats.
}
