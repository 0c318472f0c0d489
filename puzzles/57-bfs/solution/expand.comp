#version 450
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer Rowptr { uint rowptr[]; };   // nodes + 1 offsets
layout(set = 0, binding = 1) readonly buffer Colidx { uint colidx[]; };   // the edges' targets
layout(set = 0, binding = 2) buffer Result { int result[]; };             // a level per node
layout(set = 0, binding = 3) readonly buffer Frontier { uint frontier[]; };  // this level's nodes
layout(set = 0, binding = 4) writeonly buffer Next { uint next[]; };      // the next level's
layout(set = 0, binding = 5) buffer Counts { uint counts[]; };            // frontier sizes

layout(push_constant) uniform Level { uint level; };  // this lap's level: 0, 1, 2, ...

const int UNREACHED = 0x7fffffff;  // what init wrote: the largest int

void main() {
    uint t = gl_GlobalInvocationID.x;
    // counts[level] nodes are in the frontier (the launch has a thread for every node, so
    // most threads find nothing to do; in a lap past the deepest level, none does).
    uint size = counts[level];
    if (t < size) {
        uint u = frontier[t];  // my node, at distance `level` from the source
        uint start = rowptr[u];
        uint end = rowptr[u + 1];
        for (uint e = start; e < end; e++) {
            uint v = colidx[e];
            // Claim v: atomicMin lowers an unreached node to level + 1 and returns what it
            // found. Only the first thread of this level to get there finds UNREACHED; another
            // that reaches v in this level too (two edges into it, or the same edge twice) finds
            // level + 1, so v enters the next frontier once. A node of a lower level keeps it.
            if (atomicMin(result[v], int(level) + 1) == UNREACHED) {
                uint slot = atomicAdd(counts[level + 1], 1u);  // my place in the next frontier
                next[slot] = v;
            }
        }
    }
}
