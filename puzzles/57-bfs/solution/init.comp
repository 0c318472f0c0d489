#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SOURCE = 0;  // the node the search starts from

layout(set = 0, binding = 2) writeonly buffer Result { int result[]; };   // a level per node
layout(set = 0, binding = 3) writeonly buffer Frontier { uint frontier[]; };
layout(set = 0, binding = 5) writeonly buffer Counts { uint counts[]; };  // frontier sizes

const int UNREACHED = 0x7fffffff;  // the largest int: any level is smaller

// Lap 0 only, before the first expand: no node is reached but the source, at level 0, and
// the first frontier is the source alone.
void main() {
    uint v = gl_GlobalInvocationID.x;
    if (v < uint(result.length())) {
        result[v] = v == SOURCE ? 0 : UNREACHED;
    }
    if (v == 0u) {
        frontier[0] = SOURCE;
        counts[0] = 1u;
    }
}
