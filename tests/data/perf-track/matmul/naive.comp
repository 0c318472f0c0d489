#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TILE x TILE threads
layout(constant_id = 3) const uint ROWS = 1;   // rows of a and of result
layout(constant_id = 5) const uint INNER = 1;  // columns of a = rows of b: k runs along it
layout(constant_id = 6) const uint COLS = 1;   // columns of b and of result
layout(constant_id = 4) const uint TILE = 1;   // tile side = workgroup width = height
layout(set = 0, binding = 0) readonly buffer A { float a[]; };   // ROWS x INNER, row-major
layout(set = 0, binding = 1) readonly buffer B { float b[]; };   // INNER x COLS, row-major
layout(set = 0, binding = 2) buffer Result { float result[]; };  // ROWS x COLS, row-major

// The naive matmul: each thread reads its row of a and its column of b straight from global
// memory, 2 * INNER reads per output cell (the tiled official reads 2 * INNER / TILE).
void main() {
    uint c = gl_GlobalInvocationID.x;
    uint r = gl_GlobalInvocationID.y;
    if (r < ROWS && c < COLS) {
        float acc = 0.0;
        for (uint k = 0u; k < INNER; ++k)
            acc += a[r * INNER + k] * b[k * COLS + c];
        result[r * COLS + c] = acc;
    }
}
