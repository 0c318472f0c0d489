#version 450
// Subgroup operations (core in Vulkan 1.1): basic for the gl_Subgroup* ids and subgroupElect(),
// ballot for subgroupBallot, the bit counts and subgroupBroadcastFirst.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x_id = 0) in;
// One cell per subgroup: ceil(WG / 4), as a subgroup has at least 4 lanes.
layout(constant_id = 3) const uint MAX_SUBGROUPS = 1;

layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { int result[]; };  // packed per block
layout(set = 0, binding = 2) writeonly buffer Count { uint count[]; };   // one per workgroup

shared uint subgroupCounts[MAX_SUBGROUPS - 1u];  // off by one: no elements when one subgroup

void main() {
    uint n = uint(a.length());
    uint wg = gl_WorkGroupSize.x;
    uint start = gl_WorkGroupID.x * wg;  // workgroup w's block: elements start .. start + wg - 1
    // The ballot counts lanes in lane order, so number the elements by lane (on the devices we
    // know this is gl_LocalInvocationID.x; Vulkan does not promise how threads map to lanes).
    uint e = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    uint i = start + e;

    // 1. The predicate. A thread past the end keeps nothing, but it still votes below.
    int v = i < n ? a[i] : 0;
    bool keep = v > 0;

    // 2. The vote. subgroupBallot gives every lane the same mask: bit k is lane k's `keep`.
    //    Counting the set bits below my lane is an exclusive scan of the flags: my place among
    //    my subgroup's kept elements. Counting all of them is the subgroup's total.
    //        lane:            0   1   2   3   4   5   6   7
    //        keep:            1   0   0   1   1   0   1   0      ballot = 0x59
    //        exclusive count: 0   1   1   1   2   3   3   4      bit count = 4
    uvec4 kept = subgroupBallot(keep);
    uint slot = subgroupBallotExclusiveBitCount(kept);
    uint total = subgroupBallotBitCount(kept);

    // 3. Subgroup s must start after everything subgroups 0 .. s-1 keep. One lane per subgroup
    //    publishes its total (one shared write per subgroup, not one flag per thread)...
    if (subgroupElect()) {
        subgroupCounts[gl_SubgroupID] = total;
    }
    barrier();  // every subgroup's total is in place before anybody adds them up

    // 4. ... and one lane per subgroup adds up the totals before its own (a handful: WG / 8 on
    //    lavapipe, WG / 32 on NVIDIA), then broadcasts the sum, its subgroup's base, to its lanes.
    //    No atomics: an atomicAdd per subgroup would hand out the places in the order the
    //    subgroups arrive, which changes from run to run; this sum keeps the order of `a`.
    uint base = 0u;
    if (subgroupElect()) {
        for (uint s = 0u; s < gl_SubgroupID; ++s) {
            base += subgroupCounts[s];
        }
    }
    base = subgroupBroadcastFirst(base);

    // 5. Each kept element writes itself, once: different kept elements get different places
    //    base + slot = 0, 1, 2, ... in order. The rest of the block stays 0.
    if (keep) {
        result[start + base + slot] = v;
    }

    // 6. The workgroup's last thread is the last lane of the last subgroup (whatever its size):
    //    its base plus its subgroup's total is what the whole workgroup keeps.
    if (e == wg - 1u) {
        count[gl_WorkGroupID.x] = base + total;
    }
}
