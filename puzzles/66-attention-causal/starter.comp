#version 450
#extension GL_EXT_control_flow_attributes : require

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

    // 1. The query, once, into registers, with the 1 / sqrt(D) of every score folded in.
    float scale = 1.0 / sqrt(float(D));
    float qi[D];
    [[unroll]] for (uint c = 0; c < D; ++c) {
        qi[c] = mine ? q[row + c] * scale : 0.0;
    }

    // Your code here: Flash attention's tiles and online softmax, but
    //   - the workgroup's queries are first to first + wg - 1 (fewer in the last workgroup):
    //     load the tiles of keys 0 to its last query only;
    //   - in a tile, query i takes keys up to i: all of them below the diagonal, some in a
    //     tile that crosses it, none in a tile that starts after i.
    // Then result[row + c] = o[c] / l.
}
