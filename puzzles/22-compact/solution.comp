#version 450
// One workgroup of WG threads; thread t handles element t.
layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };  // the kept elements, packed
layout(set = 0, binding = 2) buffer Count { uint count[]; };    // one cell: how many

shared uint scan[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(a.length());

    // 1. The predicate. Spare threads (t >= n) keep nothing, so their flag is 0 and they
    //    change no count.
    uint v = t < n ? a[t] : 0u;
    uint keep = (t < n && (v & 1u) == 1u) ? 1u : 0u;
    scan[t] = keep;
    barrier();

    // 2. Scan the flags (Hillis-Steele, inclusive, in place). At step `offset`, every cell
    //    adds the cell `offset` to its left, so after the steps 1, 2, 4, ... cell t holds
    //    keep[0] + ... + keep[t]. Two barriers per step: all reads before any write (or a
    //    thread could add a neighbour's already-updated value), and all writes before the next
    //    step's reads. Work O(WG log WG), which is fine inside one workgroup; the Blelloch or
    //    subgroup scans from this track work just as well here.
    for (uint offset = 1u; offset < wg; offset *= 2u) {
        uint left = t >= offset ? scan[t - offset] : 0u;
        barrier();
        scan[t] += left;
        barrier();
    }

    // 3. Scatter. The kept elements before mine are scan[t] - keep (the exclusive scan): that
    //    is my slot. Different kept elements get different slots 0, 1, 2, ... in order, so no
    //    two threads write the same cell and the order of `a` is kept.
    if (keep == 1u) {
        result[scan[t] - keep] = v;
    }

    // 4. The count is the total of the flags: the last cell of the inclusive scan. One thread
    //    writes it.
    if (t == wg - 1u) {
        count[0] = scan[wg - 1u];
    }
}
