#version 450
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

shared vec4 tileA[TY * 8][BK / 4];  // [row in block][k / 4]: four neighbouring k of a row
shared vec4 tileB[BK][TX];          // [k in step][tx]: columns tx, tx + TX, tx + 2*TX, tx + 3*TX

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y, t = ty * TX + tx;
    // The workgroup's block is 8*TY x 4*TX; this thread owns rows r0 + i*TY (i < 8) and columns
    // c0 + q*TX (q < 4).
    uint row0 = gl_WorkGroupID.y * TY * 8, r0 = row0 + ty;
    uint c0 = gl_WorkGroupID.x * TX * 4 + tx;
    // acc[i][q]: the cell at row r0 + i*TY, column c0 + q*TX
    vec4 acc[8] = vec4[8](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0),
                          vec4(0.0), vec4(0.0));
    // Your code here: steps of BK along k through the two tiles, 12 shared reads per k.
}
