#version 450
// Subgroup operations are extensions to GLSL (core in Vulkan 1.1): basic for the gl_Subgroup*
// ids and subgroupElect(), arithmetic for subgroupAdd / subgroupInclusiveAdd / ...
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

// One workgroup of WG threads (at most 256); each thread scans one element.
layout(local_size_x_id = 0) in;
// Cells for the subgroup totals: the workgroup size. A device may have subgroups of 4, 8, 32 or
// 64 threads, so the number of subgroups is not known when the kernel is written; it is never
// more than one per thread, though.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

shared uint subgroupTotals[SHARED_SIZE];  // one cell per subgroup

void main() {
    uint n = uint(a.length());

    // Which element does this thread scan? subgroupInclusiveAdd adds up the lanes in LANE
    // order, so number the elements by lane: subgroup s, lane k gets element s * size + k.
    // On every device we know (lavapipe, NVIDIA, AMD) that is simply gl_LocalInvocationID.x,
    // but Vulkan does not promise how threads are grouped into subgroups; numbering by lane
    // only assumes that subgroups are filled one after the other.
    uint e = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;

    // How many subgroups? Subgroups are filled one after the other, the last one perhaps only
    // partly (200 threads in subgroups of 32: six full ones and one of 8). Lavapipe's
    // gl_NumSubgroups rounds that down (5 threads in subgroups of 4 report 1 subgroup, though
    // thread 4 sits in subgroup 1), so count them ourselves, rounding up.
    uint numSubgroups = (gl_WorkGroupSize.x + gl_SubgroupSize - 1) / gl_SubgroupSize;

    // 1. One element per thread; spare threads bring 0, which changes no sum.
    uint v = e < n ? a[e] : 0u;

    // 2. Scan inside each subgroup, in hardware: lane k gets v(lane 0) + ... + v(lane k).
    //    No shared memory and no barrier: the lanes of a subgroup exchange values directly.
    uint incl = subgroupInclusiveAdd(v);

    // 3. Each subgroup publishes its total. subgroupAdd gives every lane the total, and
    //    subgroupElect() picks exactly one lane to store it. (Taking `incl` of the last lane
    //    works too, but in a partly filled subgroup the last lane is not gl_SubgroupSize - 1.)
    uint total = subgroupAdd(v);
    if (subgroupElect()) {
        subgroupTotals[gl_SubgroupID] = total;
    }
    barrier(); // every subgroup's total is in place before subgroup 0 scans them

    // 4. Subgroup 0 turns the totals into an exclusive scan: cell s becomes the sum of the
    //    totals of subgroups 0 .. s-1, i.e. everything before subgroup s.
    //    There may be more subgroups than subgroup 0 has lanes (256 threads in subgroups of 4
    //    are 64 subgroups, but a subgroup has 4 lanes), so it walks over the cells in chunks of
    //    gl_SubgroupSize, scanning each chunk with a subgroup scan and carrying the running
    //    total from chunk to chunk. With subgroups of 32 this loop runs once.
    //    The loop's condition is the same for all lanes; the `if` inside splits them, so both
    //    subgroup operations come before it (after it, lanes are not promised to be together).
    if (gl_SubgroupID == 0) {
        uint carry = 0u;
        for (uint base = 0; base < numSubgroups; base += gl_SubgroupSize) {
            uint k = base + gl_SubgroupInvocationID;
            uint s = k < numSubgroups ? subgroupTotals[k] : 0u;
            uint before = subgroupExclusiveAdd(s);  // totals of the chunk's earlier subgroups
            uint chunkTotal = subgroupAdd(s);       // the chunk's total, the same in every lane
            if (k < numSubgroups) subgroupTotals[k] = carry + before;
            carry += chunkTotal;
            subgroupBarrier();  // lanes past the last total skipped the store: meet again
        }
    }
    barrier(); // the scanned totals are in place before anybody adds them

    // 5. My prefix = (everything before my subgroup) + (my subgroup's scan up to me).
    if (e < n) {
        result[e] = subgroupTotals[gl_SubgroupID] + incl;
    }
}
