#version 450
// Wrong on purpose (tests/cli/algorithms_track_cli_test.cpp): every workgroup loads the keys of
// its head's last query, 0 to SQ - 1, not only those its own queries see. Right values (a query
// past a tile takes none of its keys), and the work the puzzle removes: every case with more
// than one workgroup a head breaks the rule that names the workgroup's bound.
#extension GL_EXT_control_flow_attributes : require
// Causal attention: per head, query i attends to keys 0 to i only. Flash attention's kernel, one
// thread per query and tiles of BC keys in shared memory, with two changes: a workgroup stops at
// the tile that holds its last query's key (the tiles above the diagonal are never loaded), and
// in the tiles that cross the diagonal each query takes only its keys up to its own. The loops
// over D are unrolled ([[unroll]]): D is a constant, so qi and o can live in registers.

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint D = 1;   // a row's length in q, k, v and result
layout(constant_id = 4) const uint SQ = 1;  // queries per head
layout(constant_id = 5) const uint SK = 1;  // keys (and values) per head: SQ <= SK
layout(constant_id = 6) const uint BC = 1;  // keys per tile

layout(set = 0, binding = 0) readonly buffer Q { float q[]; };
layout(set = 0, binding = 1) readonly buffer K { float k[]; };
layout(set = 0, binding = 2) readonly buffer V { float v[]; };
layout(set = 0, binding = 3) writeonly buffer Result { float result[]; };

shared float kTile[BC * D];  // BC rows of k, the workgroup's for one tile
shared float vTile[BC * D];  // the same rows of v

const float LOWEST = -3.4028235e38;  // no max picks it, and exp(LOWEST - max) is 0

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint head = gl_WorkGroupID.y;
    uint first = gl_WorkGroupID.x * wg;  // the workgroup's first query, within its head
    uint i = first + t;                  // this thread's query
    bool mine = i < SQ;                  // past the last query: the thread only helps load
    uint row = (head * SQ + i) * D;      // where its row starts in q and result

    // The keys the workgroup needs: 0 to its last query, min(SQ, first + wg) - 1. Keys past it
    // are above the diagonal for every query of the workgroup: never loaded.
    uint keyEnd = SQ;

    // 1. The query, once, into registers, with the 1 / sqrt(D) of every score folded in.
    float scale = 1.0 / sqrt(float(D));
    float qi[D];
    [[unroll]] for (uint c = 0; c < D; ++c) {
        qi[c] = mine ? q[row + c] * scale : 0.0;
    }

    // The online softmax's pair, and the output row it weighs: o = sum of exp(s - m) * v.
    float m = LOWEST;
    float l = 0.0;
    float o[D];
    [[unroll]] for (uint c = 0; c < D; ++c) {  // o starts at zero
        o[c] = 0.0;
    }

    for (uint j0 = 0; j0 < keyEnd; j0 += BC) {
        uint count = min(BC, keyEnd - j0);  // the last tile stops at the last query's key
        // 2. The tile: its rows of k and v, read once by the workgroup's threads together.
        uint base = (head * SK + j0) * D;
        for (uint e = t; e < count * D; e += wg) {
            kTile[e] = k[base + e];
            vTile[e] = v[base + e];
        }
        barrier();  // the whole tile is in shared memory before anyone reads it

        if (mine) {
            // 3. The query sees keys j0 to i of the tile: all of it below the diagonal, a part
            //    in a tile that crosses it, none when the tile starts after i.
            uint seen = i >= j0 ? min(count, i + 1 - j0) : 0u;
            float s[BC];
            float tileMax = LOWEST;
            for (uint j = 0; j < seen; ++j) {
                float dot = 0.0;
                [[unroll]] for (uint c = 0; c < D; ++c) {
                    dot += qi[c] * kTile[j * D + c];
                }
                s[j] = dot;
                tileMax = max(tileMax, dot);
            }
            // 4. Flash attention's update, over the keys seen (none: newMax = m, shrink = 1).
            float newMax = max(m, tileMax);
            float shrink = exp(m - newMax);
            l *= shrink;
            [[unroll]] for (uint c = 0; c < D; ++c) {
                o[c] *= shrink;
            }
            for (uint j = 0; j < seen; ++j) {
                float p = exp(s[j] - newMax);
                l += p;
                [[unroll]] for (uint c = 0; c < D; ++c) {
                    o[c] += p * vTile[j * D + c];
                }
            }
            m = newMax;
        }
        barrier();  // everyone is done with the tile before the next one overwrites it
    }

    // 5. Every query saw key 0 at least, so l > 0: divide once, and write the row.
    if (mine) {
        [[unroll]] for (uint c = 0; c < D; ++c) {
            result[row + c] = o[c] / l;
        }
    }
}
