#version 450
#extension GL_EXT_control_flow_attributes : require
// Attention, register-tiled: per head, result = softmax(q k^T / sqrt(D)) v in one pass over the
// keys in tiles of BC, with the online softmax of Flash attention, but each tile's work done as
// two small matrix products that the whole workgroup shares.
//
// The tiling. Workgroup (x, h) takes the BR queries x*BR .. x*BR + BR - 1 of head h, with
// TX x TY = BC/4 x BR/4 threads. Per tile of BC keys:
//   S = Q K^T, BR x BC scores: thread (tx, ty) computes a 4 x 4 micro-tile, rows ty + i*TY and
//     keys tx + jj*TX (i, jj < 4). Per 4 values of d it reads 4 vec4s of qTile (its rows) and 4
//     of kvTile (its keys): 8 reads for 64 multiply-adds, every value used 4 times.
//   the row max: each thread's max over its 4 keys goes to maxPart[row][tx]; after a barrier the
//     TX threads of a row read the row's TX parts, and all take the same max.
//   P = exp(S - max) into pTile; each thread keeps its part of each row's sum l (its keys only):
//     the parts are added once, at the end.
//   O += P V, BR x D: the same thread owns the same 4 rows and the vec4 columns q = tx + h*TX
//     (h < NQ): per 4 keys it reads 4 vec4s of pTile (a row's 4 weights) and 4*NQ of v.
// k and v take turns in kvTile: v is loaded when S is done. 4 barriers a tile.
//
// Shared memory, for D = 64 and BR = BC = 32 (the benchmark's): qTile 8704 + kvTile 8704 +
// pTile 5120 + maxPart 1024 = 23552 bytes, in 32 KB (lavapipe) and in 48 KB (NVIDIA).
// Banks (32 of 4 bytes; a vec4 request is served 8 lanes at a time): consecutive threads take
// consecutive keys, so a row of qTile or kvTile is padded to an odd number of vec4s (ROW): keys
// tx .. tx + 7 then start in 8 different groups of 4 banks. pTile's rows are TX + TX/4 vec4s, so
// that a subgroup's scalar writes of p land in 32 different banks.

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

    for (uint j0 = 0; j0 < SK; j0 += BC) {
        uint count = min(BC, SK - j0);  // keys in this tile: the last one may have fewer
        uint kvFirst = (head * SK + j0) * D;

        // 2. The tile's rows of k, one run of floats as for q; rows past the last key are zeros.
        for (uint e = t; e < BC * D; e += wg) {
            uint j = e / D, c = e % D;
            kvTile[j][c / 4u][c % 4u] = j < count ? k[kvFirst + e] : 0.0;
        }
        barrier();  // the k tile (and qTile) complete before anyone reads them

        // 3. S, the thread's 4 x 4 scores: per vec4 of d, 4 reads of qTile and 4 of kvTile feed
        //    64 multiply-adds.
        vec4 s[4] = vec4[4](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));  // s[i][jj]
        for (uint dq = 0; dq < DQ; ++dq) {
            vec4 a[4], b[4];
            [[unroll]] for (uint i = 0; i < 4; ++i) a[i] = qTile[ty + i * TY][dq];
            [[unroll]] for (uint jj = 0; jj < 4; ++jj) b[jj] = kvTile[tx + jj * TX][dq];
            [[unroll]] for (uint i = 0; i < 4; ++i) {
                [[unroll]] for (uint jj = 0; jj < 4; ++jj) {  // row i's 4 scores
                    [[unroll]] for (uint e = 0; e < 4; ++e) s[i][jj] += a[i][e] * b[jj][e];
                }
            }
        }
        //    Its max over its keys, per row, for the others.
        [[unroll]] for (uint i = 0; i < 4; ++i) {
            float part = LOWEST;
            [[unroll]] for (uint jj = 0; jj < 4; ++jj) {  // keys past the last one left out
                if (tx + jj * TX < count) part = max(part, s[i][jj]);
            }
            maxPart[ty + i * TY][tx] = part;
        }
        barrier();  // every part of the row maxima written, and nobody reads k any more

        // 4. The same rows of v into kvTile, over k.
        for (uint e = t; e < BC * D; e += wg) {
            uint j = e / D, c = e % D;
            kvTile[j][c / 4u][c % 4u] = j < count ? v[kvFirst + e] : 0.0;
        }
        //    Per row: the tile's max from the TX parts; then, as in Flash attention, a larger max
        //    shrinks l and o, and the tile's weights p = exp(s - max) go to pTile and into l.
        [[unroll]] for (uint i = 0; i < 4; ++i) {
            uint r = ty + i * TY;
            float tileMax = LOWEST;
            for (uint x = 0; x < TX; ++x) {
                tileMax = max(tileMax, maxPart[r][x]);
            }
            float newMax = max(m[i], tileMax);
            float shrink = exp(m[i] - newMax);
            l[i] *= shrink;
            [[unroll]] for (uint h = 0; h < NQ; ++h) {
                o[i][h] *= shrink;
            }
            [[unroll]] for (uint jj = 0; jj < 4; ++jj) {  // the thread's 4 keys
                uint j = tx + jj * TX;
                float p = j < count ? exp(s[i][jj] - newMax) : 0.0;
                pTile[r][j / 4u][j % 4u] = p;
                l[i] += p;
            }
            m[i] = newMax;
        }
        barrier();  // pTile and the v tile complete

        // 5. O += P V: per 4 keys, 4 reads of pTile (a row's 4 weights each) and 4 * NQ of v.
        for (uint jq = 0; jq < TX; ++jq) {
            vec4 p[4];
            [[unroll]] for (uint i = 0; i < 4; ++i) p[i] = pTile[ty + i * TY][jq];
            [[unroll]] for (uint e = 0; e < 4; ++e) {
                [[unroll]] for (uint h = 0; h < NQ; ++h) {  // the thread's columns of v
                    uint col = tx + h * TX;  // the vec4 column: D need not be a multiple of BC
                    if (col < DQ) {
                        vec4 w = kvTile[jq * 4u + e][col];
                        [[unroll]] for (uint i = 0; i < 4; ++i) o[i][h] += p[i][e] * w;
                    }
                }
            }
        }
        barrier();  // pTile and v read by everyone before the next tile overwrites them
    }

    // 6. A row's sum is the sum of its TX threads' parts: through maxPart, once. Then o / l
    //    into qTile (nobody reads the queries any more), and out as one run of floats.
    [[unroll]] for (uint i = 0; i < 4; ++i) {
        maxPart[ty + i * TY][tx] = l[i];
    }
    barrier();  // every part of the sums written
    [[unroll]] for (uint i = 0; i < 4; ++i) {
        uint r = ty + i * TY;
        float sum = 0.0;
        for (uint x = 0; x < TX; ++x) {
            sum += maxPart[r][x];
        }
        [[unroll]] for (uint h = 0; h < NQ; ++h) {  // and of the output
            uint col = tx + h * TX;
            if (col < DQ) qTile[r][col] = o[i][h] / sum;
        }
    }
    barrier();  // the whole output block in qTile
    for (uint e = t; e < rows * D; e += wg) {
        result[qFirst + e] = qTile[e / D][e % D / 4u][e % 4u];
    }
}
