// puzzle: matmul
// mistake: no tiles: each thread reads its whole row of a and column of b (2 x INNER reads). A
// fixed limit of 10 reads let it through wherever INNER <= 5; the limit now follows each case's
// shape (2 x ceil(INNER / TILE)), so the tall, thin 7x2 x 2x1 case (one step along k: 2 reads
// allowed, 4 made) catches it
// traced
// fails: case 10
// finding: read limit
#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 3) const uint ROWS = 1;
layout(constant_id = 5) const uint INNER = 1;
layout(constant_id = 6) const uint COLS = 1;
layout(constant_id = 4) const uint TILE = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) buffer Result { float result[]; };

void main() {
    uint c = gl_GlobalInvocationID.x;
    uint r = gl_GlobalInvocationID.y;
    if (r >= ROWS || c >= COLS) return;
    float acc = 0.0;
    for (uint k = 0u; k < INNER; ++k) acc += a[r * INNER + k] * b[k * COLS + c];
    result[r * COLS + c] = acc;
}
