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

    // Complex number j of the row is the pair x[row + 2j], x[row + 2j + 1].
    for (uint j = t; j < LEN; j += wg) {
        buf[0][j] = vec2(x[row + 2u * j], x[row + 2u * j + 1u]);
    }
    barrier();

    // log2(LEN) stages. Before the stage of `span`, buf[src] holds LEN / span transforms of
    // length span side by side: transform m, cells m * span to m * span + span - 1, is the DFT of
    // x[m], x[m + LEN / span], x[m + 2 LEN / span], ... Butterfly b (LEN / 2 of them, WG at a
    // time) takes cell k of transforms m and m + LEN / (2 span), always half a row apart, and
    // writes cells k and k + span of transform m twice as long. No bit reversal at the end: the
    // point of Stockham.
    uint src = 0u;
    for (uint span = 1u; span < LEN; span *= 2u) {
        for (uint b = t; b < LEN / 2u; b += wg) {
            uint k = b % span;                           // which frequency of its transform
            float angle = -PI * float(k) / float(span);  // -2 pi k / (2 span), in (-pi, 0]
            vec2 w = vec2(cos(angle), sin(angle));       // the twiddle factor
            vec2 u = buf[src][b];
            vec2 v = complexMul(buf[src][b + LEN / 2u], w);
            uint first = (b - k) * 2u + k;               // (b / span) * 2 span + k
            buf[1u - src][first] = u + v;
            buf[1u - src][first + span] = u - v;
        }
        barrier();  // one per stage: the next stage reads what other threads wrote
        src = 1u - src;
    }

    for (uint j = t; j < LEN; j += wg) {
        vec2 y = buf[src][j];
        result[row + 2u * j] = y.x;
        result[row + 2u * j + 1u] = y.y;
    }
}
