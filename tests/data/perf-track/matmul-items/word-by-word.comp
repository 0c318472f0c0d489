#version 450
// A variant of puzzles/54-matmul-items/solution.comp for tests/cli/perf_track_cli_test.cpp.
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TX x TY threads
layout(constant_id = 3) const uint ROWS = 1;   // rows of a and of result
layout(constant_id = 4) const uint INNER = 1;  // columns of a = rows of b: k runs along it
layout(constant_id = 5) const uint COLS = 1;   // columns of b and of result
layout(constant_id = 6) const uint TX = 1;     // workgroup width
layout(constant_id = 7) const uint TY = 1;     // workgroup height
layout(constant_id = 8) const uint BK = 4;     // k values a step: a multiple of 4 and of TY
layout(set = 0, binding = 0) readonly buffer A { float a[]; };   // ROWS x INNER, row-major
layout(set = 0, binding = 1) readonly buffer B { float b[]; };   // INNER x COLS, row-major
layout(set = 0, binding = 2) buffer Result { float result[]; };  // ROWS x COLS, row-major

// One step along k. tileA: the block's 8*TY rows of a, BK deep, four neighbouring k to a vec4.
// tileB: BK rows of the block's 4*TX columns of b, stored so that tileB[k][tx] holds the four
// columns of thread column tx (tx, tx + TX, tx + 2*TX, tx + 3*TX): one read brings all four.
shared vec4 tileA[TY * 8][BK / 4];  // [row in block][k / 4]
shared vec4 tileB[BK][TX];          // [k in step][thread column]

// The next step's values, loaded while this step multiplies: 8*BK/TX of a, BK/TY rows of b.
float nextA[8 * BK / TX];
vec4 nextB[BK / TY];

// Thread t of the workgroup loads elements t, t + TX*TY, ... of the a tile (k fastest, so a
// subgroup reads along rows), and its own four columns of b in rows ty, ty + TY, ...
void load(uint k0, uint t, uint row0, uint c0, uint ty) {
    [[unroll]] for (uint p = 0; p < 8 * BK / TX; ++p) {
        uint e = t + p * TX * TY, r = row0 + e / BK, k = k0 + e % BK;
        nextA[p] = (r < ROWS && k < INNER) ? a[r * INNER + k] : 0.0;
    }
    [[unroll]] for (uint p = 0; p < BK / TY; ++p) {
        uint k = k0 + ty + p * TY;
        [[unroll]] for (uint q = 0; q < 4; ++q) {
            uint c = c0 + q * TX;
            nextB[p][q] = (k < INNER && c < COLS) ? b[k * COLS + c] : 0.0;
        }
    }
}

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y, t = ty * TX + tx;
    // The workgroup computes an 8*TY x 4*TX block of result. Thread (tx, ty) owns 32 cells: rows
    // r0 + i*TY (i < 8) and columns c0 + q*TX (q < 4), TY and TX apart, so that in every load and
    // store of result neighbouring threads touch neighbouring addresses.
    uint row0 = gl_WorkGroupID.y * TY * 8, r0 = row0 + ty;
    uint c0 = gl_WorkGroupID.x * TX * 4 + tx;

    // acc[i][q]: the cell at row r0 + i*TY, column c0 + q*TX
    vec4 acc[8] = vec4[8](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0),
                          vec4(0.0), vec4(0.0));

    load(0, t, row0, c0, ty);
    for (uint k0 = 0; k0 < INNER; k0 += BK) {
        [[unroll]] for (uint p = 0; p < 8 * BK / TX; ++p) {
            uint e = t + p * TX * TY;
            tileA[e / BK][e % BK / 4][e % 4] = nextA[p];
        }
        [[unroll]] for (uint p = 0; p < BK / TY; ++p) tileB[ty + p * TY][tx] = nextB[p];
        barrier();  // both tiles complete before anyone multiplies

        // The next step's loads go out now and travel while this step multiplies (after the last
        // step every k is past the end: they read nothing and load zeros).
        load(k0 + BK, t, row0, c0, ty);

        // Each value once per k, as the rule asks, but one word at a time: 12 reads per k that the
        // check counts like the official solution's, and three times the instructions.
        for (uint k = 0; k < BK; ++k) {
            float x[8];
            [[unroll]] for (uint i = 0; i < 8; ++i) x[i] = tileA[ty + i * TY][k / 4][k % 4];
            [[unroll]] for (uint q = 0; q < 4; ++q) {
                float y = tileB[k][tx][q];
                [[unroll]] for (uint i = 0; i < 8; ++i) acc[i][q] += x[i] * y;
            }
        }
        barrier();  // nobody overwrites the tiles while a slower thread still reads them
    }

    // Up to 32 writes, each guarded: the block may stick out of the matrix.
    [[unroll]] for (uint i = 0; i < 8; ++i) {
        uint r = r0 + i * TY;
        [[unroll]] for (uint q = 0; q < 4; ++q) {
            uint c = c0 + q * TX;
            if (r < ROWS && c < COLS) result[r * COLS + c] = acc[i][q];
        }
    }
}
