#version 450
// Segmented scan one round short (the last doubling dropped): right wherever no segment is
// longer than half a block.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;  // the workgroup size

layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) readonly buffer Flags { uint flags[]; };  // 1: a segment starts
layout(set = 0, binding = 2) writeonly buffer Result { int result[]; };

// Each cell is a pair: the running sum, and whether a head lies anywhere in its range.
shared int sums[SHARED_SIZE];
shared uint heads[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(a.length());

    int v = 0;
    uint f = 1u;
    if (i < n) {
        v = a[i];
        f = flags[i];
    }
    sums[t] = v;
    heads[t] = f;
    barrier();

    for (uint d = 1; d * 2u < wg; d *= 2) {  // one round short: distance wg / 2 never comes
        int pv = 0;
        uint pf = 0u;
        if (t >= d) {
            pv = sums[t - d];
            pf = heads[t - d];
        }
        barrier();
        if (f == 0u) {
            v += pv;
        }
        f |= pf;
        sums[t] = v;
        heads[t] = f;
        barrier();
    }

    if (i < n) {
        result[i] = v;
    }
}
