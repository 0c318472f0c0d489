#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SOURCE = 0;  // the node the search starts from

layout(set = 0, binding = 2) writeonly buffer Result { int result[]; };   // a level per node
layout(set = 0, binding = 3) writeonly buffer Frontier { uint frontier[]; };
layout(set = 0, binding = 5) writeonly buffer Counts { uint counts[]; };  // frontier sizes

const int UNREACHED = 0x7fffffff;  // the largest int: any level is smaller

// Lap 0 only, before the first expand.
void main() {
    uint v = gl_GlobalInvocationID.x;  // one thread per node (and a few more)
    // Your code here: every node's level UNREACHED, the source's 0; the first frontier is the
    // source alone (frontier[0], counts[0]).
}
