// matmul-tensor-cores without the tensor cores: the solution's tiles, converted to 16-bit floats
// in shared memory, multiplied on the ALUs with 32-bit sums. It computes what the puzzle's
// reference op matmul_f16 says, so it passes every case once the puzzle's `uses` rule is taken
// away (tests/check/cooperative_matrix_test.cpp): the op rounds as the device converts.
// (Converting and widening in registers, float(float16_t(x)), is no test of that: on Mesa 25's
// lavapipe and on an H200 such a kernel failed every case but the whole numbers, as 32-bit
// products do; on Mesa 22's it passed.)
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x_id = 0) in;  // 64 or more threads: 16 cells each at most
layout(constant_id = 3) const uint ROWS = 1;
layout(constant_id = 5) const uint INNER = 1;
layout(constant_id = 6) const uint COLS = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) buffer Result { float result[]; };

shared float16_t tileA[32 * 32];  // [row in block][k in step]
shared float16_t tileB[32 * 32];  // [k in step][column in block]

void main() {
    uint t = gl_LocalInvocationID.x, wg = gl_WorkGroupSize.x;
    uint row0 = gl_WorkGroupID.y * 32, col0 = gl_WorkGroupID.x * 32;
    float sums[16];
    for (uint j = 0; j < 16; ++j) sums[j] = 0.0;
    for (uint k0 = 0; k0 < INNER; k0 += 32) {
        for (uint i = t; i < 32 * 32; i += wg) {
            uint r = row0 + i / 32, k = k0 + i % 32;
            tileA[i] = float16_t(r < ROWS && k < INNER ? a[r * INNER + k] : 0.0);
            uint kb = k0 + i / 32, c = col0 + i % 32;
            tileB[i] = float16_t(kb < INNER && c < COLS ? b[kb * COLS + c] : 0.0);
        }
        barrier();
        for (uint i = t, j = 0; i < 32 * 32; i += wg, ++j)
            for (uint k = 0; k < 32; ++k)
                sums[j] += float(tileA[(i / 32) * 32 + k]) * float(tileB[k * 32 + i % 32]);
        barrier();
    }
    for (uint i = t, j = 0; i < 32 * 32; i += wg, ++j) {
        uint r = row0 + i / 32, c = col0 + i % 32;
        if (r < ROWS && c < COLS) result[r * COLS + c] = sums[j];
    }
}
