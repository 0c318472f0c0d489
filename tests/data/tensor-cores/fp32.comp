// The same sums from the 32-bit inputs, as Matmul with register tiling computes them: right to
// about 1e-3, and wrong for a tensor-core puzzle, whose inputs are 16-bit floats (where the
// inputs are whole numbers, case 6, the two agree).
#version 450
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
        float s = 0.0;
        for (uint k = 0; k < INNER; ++k) s += a[r * INNER + k] * b[k * COLS + c];
        result[r * COLS + c] = s;
    }
}
