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

shared uint subgroupCounts[MAX_SUBGROUPS];  // how many elements each subgroup keeps

void main() {
    uint n = uint(a.length());
    uint wg = gl_WorkGroupSize.x;
    uint start = gl_WorkGroupID.x * wg;  // workgroup w's block: elements start .. start + wg - 1
    // Elements numbered by lane: the ballot counts lanes in lane order.
    uint e = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    uint i = start + e;

    int v = i < n ? a[i] : 0;
    bool keep = v > 0;

    // Your code here:
    // 1. uvec4 kept = subgroupBallot(keep); then the lane's place among its subgroup's kept
    //    elements (subgroupBallotExclusiveBitCount) and the subgroup's total
    //    (subgroupBallotBitCount).
    // 2. One lane per subgroup stores its total in subgroupCounts[gl_SubgroupID]; barrier().
    // 3. One lane per subgroup adds up the totals of the subgroups before it and broadcasts
    //    that base (subgroupBroadcastFirst).
    // 4. A kept element writes result[start + base + slot] = v; the last thread (e == wg - 1)
    //    writes count[gl_WorkGroupID.x].
}
