#version 450
// Wrong on purpose (tests/cli/algorithms_track_cli_test.cpp): the ballot's places, as if the
// workgroup were one subgroup. Every subgroup packs its kept elements from the block's first cell,
// on top of the others', and the count is the first subgroup's. Right where a workgroup is one
// subgroup (workgroups of 4 to 8 threads here); wrong in the cases of 96 threads and more, on any
// device whose subgroups have 8 to 64 lanes.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint MAX_SUBGROUPS = 1;

layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { int result[]; };  // packed per block
layout(set = 0, binding = 2) writeonly buffer Count { uint count[]; };   // one per workgroup

void main() {
    uint n = uint(a.length());
    uint wg = gl_WorkGroupSize.x;
    uint start = gl_WorkGroupID.x * wg;  // workgroup w's block: elements start .. start + wg - 1
    uint e = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    uint i = start + e;

    int v = i < n ? a[i] : 0;
    bool keep = v > 0;

    uvec4 kept = subgroupBallot(keep);
    uint slot = subgroupBallotExclusiveBitCount(kept);
    uint total = subgroupBallotBitCount(kept);

    if (keep) {
        result[start + slot] = v;  // as if the workgroup were one subgroup: no base
    }
    if (e == 0u) {
        count[gl_WorkGroupID.x] = total;  // the first subgroup's total only
    }
}
