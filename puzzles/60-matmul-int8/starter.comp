#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TILE x TILE threads
layout(constant_id = 3) const uint ROWS = 1;   // rows of a and of result
layout(constant_id = 4) const uint COLS = 1;   // rows of bt = columns of b and of result
layout(constant_id = 5) const uint WORDS = 1;  // words of a row of a and of bt: K = 4 * WORDS
layout(constant_id = 6) const uint TILE = 1;   // tile side = workgroup width = height
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };    // ROWS x WORDS, 4 int8 a word
layout(set = 0, binding = 1) readonly buffer BT { uint bt[]; };  // COLS x WORDS: b transposed
layout(set = 0, binding = 2) writeonly buffer Result { int result[]; };  // ROWS x COLS

shared uint tileA[TILE][TILE];      // [row of a in tile][word in step]
shared uint tileB[TILE][TILE + 1];  // [row of bt in tile][word in step]; one spare column

// The four signed bytes of a word, byte 0 the lowest. Your code here.
ivec4 bytes(uint w) {
    return ivec4(0);
}

void main() {
    uint c = gl_GlobalInvocationID.x;  // output column = row of bt
    uint r = gl_GlobalInvocationID.y;  // output row = row of a
    int acc = 0;
    // Your code here: step along k a tile of TILE words at a time, through tileA and tileB.
    if (r < ROWS && c < COLS) {
        result[r * COLS + c] = acc;
    }
}
