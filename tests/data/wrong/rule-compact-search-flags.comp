// puzzle: compact
// mistake: each kept thread finds its slot by counting the flags before it one by one, and the
// last thread counts all of them: the values are right, but a thread reads up to WG flags where
// the statement asks for a scan (O(log WG) steps per thread); the trace counts its shared reads
// traced
// fails: case 4
// fails: case 6
// finding: rule
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };
layout(set = 0, binding = 2) buffer Count { uint count[]; };

shared uint flags[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(a.length());
    uint v = t < n ? a[t] : 0u;
    uint keep = (t < n && (v & 1u) == 1u) ? 1u : 0u;
    flags[t] = keep;
    barrier();
    if (keep == 1u) {
        uint before = 0u;
        for (uint j = 0u; j < t; ++j) before += flags[j];
        result[before] = v;
    }
    if (t == wg - 1u) {
        uint total = 0u;
        for (uint j = 0u; j < wg; ++j) total += flags[j];
        count[0] = total;
    }
}
