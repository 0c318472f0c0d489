// 16-bit inputs as the puzzle asks, but 16-bit sums too (as an accumulator of float16_t would
// keep them): each sum loses its low bits at every step, far past the tolerance.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ROWS = 1;
layout(constant_id = 5) const uint INNER = 1;
layout(constant_id = 6) const uint COLS = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) buffer Result { float result[]; };

void main() {
    uint row0 = gl_WorkGroupID.y * 32, col0 = gl_WorkGroupID.x * 32;
    for (uint i = gl_LocalInvocationID.x; i < 32 * 32; i += gl_WorkGroupSize.x) {
        uint r = row0 + i / 32, c = col0 + i % 32;
        if (r >= ROWS || c >= COLS) continue;
        float16_t s = float16_t(0.0);
        for (uint k = 0; k < INNER; ++k)
            s += float16_t(a[r * INNER + k]) * float16_t(b[k * COLS + c]);
        result[r * COLS + c] = float(s);
    }
}
