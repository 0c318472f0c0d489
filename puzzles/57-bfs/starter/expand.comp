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
    // Your code here: thread t takes node t of the frontier (if there is one), and claims each
    // of its neighbours with atomicMin(result[v], level + 1): the thread that finds UNREACHED
    // appends v to next, at a place handed out by atomicAdd on counts[level + 1].
}
