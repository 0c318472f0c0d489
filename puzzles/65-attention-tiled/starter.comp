#version 450
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TX x TY = BC/4 x BR/4 threads
layout(constant_id = 3) const uint D = 4;    // a row's length in q, k, v and result: a multiple of 4
layout(constant_id = 4) const uint SQ = 1;   // queries per head
layout(constant_id = 5) const uint SK = 1;   // keys (and values) per head
layout(constant_id = 6) const uint BR = 4;   // queries per workgroup: a multiple of 4
layout(constant_id = 7) const uint BC = 4;   // keys per tile: a multiple of 4

layout(set = 0, binding = 0) readonly buffer Q { float q[]; };
layout(set = 0, binding = 1) readonly buffer K { float k[]; };
layout(set = 0, binding = 2) readonly buffer V { float v[]; };
layout(set = 0, binding = 3) writeonly buffer Result { float result[]; };

const uint TX = BC / 4u;                // threads along a row of scores, 4 keys each
const uint TY = BR / 4u;                // threads down, 4 queries each
const uint DQ = D / 4u;                 // a row of q, k or v in vec4s
const uint ROW = DQ | 1u;               // ... padded to an odd number of vec4s
const uint NQ = (DQ + TX - 1u) / TX;    // vec4 columns of the output per thread
const uint PROW = TX + (TX + 3u) / 4u;  // a row of pTile in vec4s, padded by a quarter

shared vec4 qTile[BR][ROW];    // the workgroup's queries times 1/sqrt(D); at the end, its outputs
shared vec4 kvTile[BC][ROW];   // the tile's rows of k, then the same rows of v
shared vec4 pTile[BR][PROW];   // the tile's weights p = exp(s - max), BR x BC
shared float maxPart[BR][TX];  // per row, each thread's max over its 4 keys (at the end: its sum)

const float LOWEST = -3.4028235e38;  // no max picks it, and exp(LOWEST - max) is 0

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint t = gl_LocalInvocationIndex;  // ty * TX + tx: consecutive threads share a row of threads
    uint wg = TX * TY;
    uint head = gl_WorkGroupID.y;
    uint row0 = gl_WorkGroupID.x * BR;  // the workgroup's first query, within its head
    uint rows = min(BR, SQ - row0);     // its queries: the last workgroup of a head may have fewer
    uint qFirst = (head * SQ + row0) * D;

    // 1. The workgroup's BR rows of q are one run of BR * D floats: consecutive threads read
    //    consecutive floats. Times 1/sqrt(D); rows past the last query hold zeros.
    float scale = 1.0 / sqrt(float(D));
    for (uint e = t; e < BR * D; e += wg) {
        uint r = e / D, c = e % D;
        qTile[r][c / 4u][c % 4u] = r < rows ? q[qFirst + e] * scale : 0.0;
    }

    // The thread's 4 rows (component or index i): the online softmax's max m, its part l of the
    // sum (over its own keys), and its micro-tile of the output, 4 rows x NQ vec4s.
    vec4 m = vec4(LOWEST), l = vec4(0.0);
    vec4 o[4][NQ];
    [[unroll]] for (uint i = 0; i < 4; ++i) {  // o starts at zero
        [[unroll]] for (uint h = 0; h < NQ; ++h) o[i][h] = vec4(0.0);
    }

    // Your code here. For each tile of BC keys (the last one may have fewer):
    //   - load its rows of k into kvTile (consecutive threads, consecutive floats; zeros past
    //     the last key), barrier();
    //   - S: the thread's 4 x 4 scores s[i][jj] of rows ty + i * TY and keys tx + jj * TX, from
    //     qTile and kvTile; each row's max over the thread's keys into maxPart[row][tx];
    //     barrier();
    //   - load the tile's rows of v into kvTile; per row, the tile's max from maxPart, then the
    //     online softmax's update (shrink l and o) and the weights p into pTile; barrier();
    //   - O += P V from pTile and kvTile into o; barrier() before the next tile.
    // Then each row's sum from its threads' parts of l (through maxPart), o / l staged in
    // qTile, and written to result as one run of consecutive floats.
}
