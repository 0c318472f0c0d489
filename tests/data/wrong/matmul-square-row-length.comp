// puzzle: matmul
// mistake: a's rows are taken to be COLS long, as in a square product (a[r * COLS + k]): right
// when INNER = COLS, wrong otherwise
// fails: case 8
#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TILE x TILE threads
layout(constant_id = 3) const uint ROWS = 1;   // rows of a and of result
layout(constant_id = 5) const uint INNER = 1;  // columns of a = rows of b: k runs along it
layout(constant_id = 6) const uint COLS = 1;   // columns of b and of result
layout(constant_id = 4) const uint TILE = 1;   // tile side = workgroup width = height
layout(set = 0, binding = 0) readonly buffer A { float a[]; };   // ROWS x INNER, row-major
layout(set = 0, binding = 1) readonly buffer B { float b[]; };   // INNER x COLS, row-major
layout(set = 0, binding = 2) buffer Result { float result[]; };  // ROWS x COLS, row-major

shared float tileA[TILE][TILE];  // [row in tile][column in tile]
shared float tileB[TILE][TILE];

void main() {
    uint c = gl_GlobalInvocationID.x;  // output column
    uint r = gl_GlobalInvocationID.y;  // output row
    uint lx = gl_LocalInvocationID.x;
    uint ly = gl_LocalInvocationID.y;

    float acc = 0.0;

    for (uint k0 = 0; k0 < INNER; k0 += TILE) {
        float va = 0.0;
        if (r < ROWS && k0 + lx < COLS) {
            va = a[r * COLS + k0 + lx];
        }
        tileA[ly][lx] = va;

        float vb = 0.0;
        if (k0 + ly < INNER && c < COLS) {
            vb = b[(k0 + ly) * COLS + c];
        }
        tileB[ly][lx] = vb;

        barrier();

        for (uint k = 0; k < TILE; ++k) {
            acc += tileA[ly][k] * tileB[k][lx];
        }

        barrier();
    }

    if (r < ROWS && c < COLS) {
        result[r * COLS + c] = acc;
    }
}
