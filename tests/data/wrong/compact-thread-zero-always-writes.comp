// puzzle: compact
// mistake: thread 0 writes its element whether it is kept or not ("element 0 always goes to slot
// 0"); when it is not kept, the first kept element overwrites it (a race the trace reports), and
// when nothing is kept it stays
// fails: case 7
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };
layout(set = 0, binding = 2) buffer Count { uint count[]; };

shared uint scan[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(a.length());
    uint v = t < n ? a[t] : 0u;
    uint keep = (t < n && (v & 1u) == 1u) ? 1u : 0u;
    scan[t] = keep;
    barrier();
    for (uint offset = 1u; offset < wg; offset *= 2u) {
        uint left = t >= offset ? scan[t - offset] : 0u;
        barrier();
        scan[t] += left;
        barrier();
    }
    if (keep == 1u || t == 0u) result[scan[t] - keep] = v;
    if (t == wg - 1u) count[0] = scan[wg - 1u];
}
