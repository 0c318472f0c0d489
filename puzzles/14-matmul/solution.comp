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

    // result[r][c] = sum over k of a[r][k] * b[k][c]. The threads of one workgroup share rows of
    // a (all threads with the same r) and columns of b (same c), so instead of each thread
    // reading 2 * INNER values, the workgroup reads each needed value once per tile step and
    // shares it through shared memory.
    float acc = 0.0;

    // Walk along k one tile at a time: step k0 covers k = k0 .. k0 + TILE - 1.
    // ceil(INNER / TILE) steps, 2 global reads each: exactly the limit, 2 * ceil_div(INNER, TILE).
    for (uint k0 = 0; k0 < INNER; k0 += TILE) {
        // Each thread fetches one element of each tile. Thread (lx, ly) brings:
        //   a[r][k0 + lx]  -> tileA[ly][lx]   (its row of a, shifted along k by its x)
        //   b[k0 + ly][c]  -> tileB[ly][lx]   (its column of b, shifted along k by its y)
        // Cells that fall outside the matrix become 0, so partial tiles need no special case
        // in the sum below. Spare threads (r or c out of range) still load what they can:
        // their neighbours need those values.
        float va = 0.0;
        if (r < ROWS && k0 + lx < INNER) {
            va = a[r * INNER + k0 + lx];
        }
        tileA[ly][lx] = va;

        float vb = 0.0;
        if (k0 + ly < INNER && c < COLS) {
            vb = b[(k0 + ly) * COLS + c];
        }
        tileB[ly][lx] = vb;

        // Barrier 1: both tiles must be complete before anyone multiplies with them.
        barrier();

        // Row ly of tileA times column lx of tileB: this step's share of the dot product.
        for (uint k = 0; k < TILE; ++k) {
            acc += tileA[ly][k] * tileB[k][lx];
        }

        // Barrier 2: nobody may overwrite the tiles (next step's loads) while a slower thread
        // is still reading them.
        barrier();
    }

    // Only threads inside the matrix have an output cell.
    if (r < ROWS && c < COLS) {
        result[r * COLS + c] = acc;
    }
}
