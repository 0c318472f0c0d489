#version 450
// Flash attention: per head, result = softmax(q k^T / sqrt(D)) v, in one pass over K and V in
// tiles of BC keys, with the online softmax (Softmax online) carried per query.
#extension GL_EXT_control_flow_attributes : require  // [[unroll]]: D is known when it runs
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint D = 1;   // a row's length in q, k, v and result
layout(constant_id = 4) const uint SQ = 1;  // queries per head
layout(constant_id = 5) const uint SK = 1;  // keys (and values) per head
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
    uint i = gl_WorkGroupID.x * wg + t;  // this thread's query, within its head
    bool mine = i < SQ;                  // past the last query: the thread only helps load
    uint row = (head * SQ + i) * D;      // where its row starts in q and result

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

    for (uint j0 = 0; j0 < SK; j0 += BC) {
        uint count = min(BC, SK - j0);  // the last tile may be short
        // 2. The tile: its rows of k and v, read once by the workgroup's threads together.
        uint first = (head * SK + j0) * D;
        for (uint e = t; e < count * D; e += wg) {
            kTile[e] = k[first + e];
            vTile[e] = v[first + e];
        }
        barrier();  // the whole tile is in shared memory before anyone reads it

        if (mine) {
            // 3. The tile's scores, and their max.
            float s[BC];
            float tileMax = LOWEST;
            for (uint j = 0; j < count; ++j) {
                float dot = 0.0;
                [[unroll]] for (uint c = 0; c < D; ++c) {
                    dot += qi[c] * kTile[j * D + c];
                }
                s[j] = dot;
                tileMax = max(tileMax, dot);
            }
            // 4. A larger max shrinks what is summed so far, once per tile; then the tile's
            //    weights exp(s - max) are added to l and, times their values, to o.
            float newMax = max(m, tileMax);
            float shrink = exp(m - newMax);
            l *= shrink;
            [[unroll]] for (uint c = 0; c < D; ++c) {
                o[c] *= shrink;
            }
            for (uint j = 0; j < count; ++j) {
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

    // 5. The weights summed to l: divide once, and write the row.
    if (mine) {
        [[unroll]] for (uint c = 0; c < D; ++c) {
            result[row + c] = o[c] / l;
        }
    }
}
