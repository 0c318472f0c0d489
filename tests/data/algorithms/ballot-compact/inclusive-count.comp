#version 450
// Wrong on purpose (tests/cli/algorithms_track_cli_test.cpp): the inclusive bit count where the
// exclusive one is a kept element's place. Every kept element lands one cell to the right (the
// first cell of every block that keeps something stays 0): wrong values in every case.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint MAX_SUBGROUPS = 1;

layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { int result[]; };  // packed per block
layout(set = 0, binding = 2) writeonly buffer Count { uint count[]; };   // one per workgroup

shared uint subgroupCounts[MAX_SUBGROUPS];  // how many elements each subgroup keeps

void main() {
    uint n = uint(a.length());
    uint wg = gl_WorkGroupSize.x;
    uint start = gl_WorkGroupID.x * wg;  // workgroup w's block: elements start .. start + wg - 1
    uint e = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    uint i = start + e;

    int v = i < n ? a[i] : 0;
    bool keep = v > 0;

    uvec4 kept = subgroupBallot(keep);
    uint slot = subgroupBallotInclusiveBitCount(kept);  // counts my own bit too
    uint total = subgroupBallotBitCount(kept);

    if (subgroupElect()) {
        subgroupCounts[gl_SubgroupID] = total;
    }
    barrier();  // every subgroup's total is in place before anybody adds them up

    uint base = 0u;
    if (subgroupElect()) {
        for (uint s = 0u; s < gl_SubgroupID; ++s) {
            base += subgroupCounts[s];
        }
    }
    base = subgroupBroadcastFirst(base);

    if (keep) {
        result[start + base + slot] = v;
    }

    if (e == wg - 1u) {
        count[gl_WorkGroupID.x] = base + total;
    }
}
