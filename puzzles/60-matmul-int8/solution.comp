#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TILE x TILE threads
layout(constant_id = 3) const uint ROWS = 1;   // rows of a and of result
layout(constant_id = 4) const uint COLS = 1;   // rows of bt = columns of b and of result
layout(constant_id = 5) const uint WORDS = 1;  // words of a row of a and of bt: K = 4 * WORDS
layout(constant_id = 6) const uint TILE = 1;   // tile side = workgroup width = height
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };    // ROWS x WORDS, 4 int8 a word
layout(set = 0, binding = 1) readonly buffer BT { uint bt[]; };  // COLS x WORDS: b transposed
layout(set = 0, binding = 2) writeonly buffer Result { int result[]; };  // ROWS x COLS

// Words stay packed in shared memory too: a tile of TILE words holds 4 * TILE values of k.
// tileB has one spare column: its column is read below (tileB[lx][k]), and rows TILE + 1 words
// long put the lanes' words in different banks (Transpose without bank conflicts).
shared uint tileA[TILE][TILE];      // [row of a in tile][word in step]
shared uint tileB[TILE][TILE + 1];  // [row of bt (column of b) in tile][word in step]

// The four signed bytes of a word, byte 0 the lowest. bitfieldExtract of an int sign-extends
// the field: 0xFF is -1, 0x80 is -128. Of a uint it would zero-extend (0xFF = 255): wrong here.
ivec4 bytes(uint w) {
    int s = int(w);
    return ivec4(bitfieldExtract(s, 0, 8), bitfieldExtract(s, 8, 8), bitfieldExtract(s, 16, 8),
                 bitfieldExtract(s, 24, 8));
}

// Four products of int8 values from two words, added: what dotPacked4x8EXT does in one
// instruction on a GPU that has it (GL_EXT_integer_dot_product).
int dot4(uint x, uint y) {
    ivec4 p = bytes(x) * bytes(y);
    return p.x + p.y + p.z + p.w;
}

void main() {
    uint c = gl_GlobalInvocationID.x;  // output column = row of bt
    uint r = gl_GlobalInvocationID.y;  // output row = row of a
    uint lx = gl_LocalInvocationID.x;
    uint ly = gl_LocalInvocationID.y;
    uint c0 = gl_WorkGroupID.x * TILE;  // first column of the workgroup's block

    int acc = 0;  // 32-bit sums: 128 * 128 * K stays far below 2^31 for any K here

    // Walk along k a tile of TILE words (4 * TILE values) at a time, as in Matrix multiply: two
    // global reads per step, each bringing four values.
    for (uint k0 = 0; k0 < WORDS; k0 += TILE) {
        // Thread (lx, ly) brings word k0 + lx of row r of a, and of row c0 + ly of bt: both
        // along rows, so neighbouring threads read neighbouring words. 0 outside (0 adds 0).
        uint wa = 0u;
        if (r < ROWS && k0 + lx < WORDS) {
            wa = a[r * WORDS + k0 + lx];
        }
        tileA[ly][lx] = wa;
        uint wb = 0u;
        if (c0 + ly < COLS && k0 + lx < WORDS) {
            wb = bt[(c0 + ly) * WORDS + k0 + lx];
        }
        tileB[ly][lx] = wb;
        barrier();  // both tiles complete before anyone multiplies

        // Row ly of tileA against row lx of tileB (column c of b): 4 * TILE multiply-adds from
        // 2 * TILE words of shared memory.
        for (uint k = 0; k < TILE; ++k) {
            acc += dot4(tileA[ly][k], tileB[lx][k]);
        }
        barrier();  // nobody overwrites the tiles while a slower thread still reads them
    }

    if (r < ROWS && c < COLS) {
        result[r * COLS + c] = acc;
    }
}
