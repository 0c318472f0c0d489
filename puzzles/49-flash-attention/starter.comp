#version 450

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
    for (uint c = 0; c < D; ++c) {
        qi[c] = mine ? q[row + c] * scale : 0.0;
    }

    // Your code here. For each tile of BC keys (the last one may be shorter):
    //   - the workgroup's threads together copy its rows of k and v into kTile and vTile
    //     (every thread helps, also those past the last query), then barrier();
    //   - each thread with a query computes the tile's scores, qi . kTile row j, and carries
    //     the online softmax's pair (m, l) and its output row o[D] across the tiles;
    //   - barrier() before the next tile overwrites kTile and vTile.
    // Then result[row + c] = o[c] / l.
}
