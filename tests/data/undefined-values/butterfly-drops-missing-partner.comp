#version 450
// butterfly, with every lane also taking the value of lane ^ 4 (a look at the neighbouring
// team). In a partly filled last subgroup (workgroups of 36 on 8 lanes: lanes 0-3 only) that
// partner does not exist and the value is undefined; those lanes drop it, the others add it into
// a total nothing reads. Right: the undefined value reaches nothing.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = uint(a.length());
    float v = i < n ? a[i] : 0.0;
    uint present = subgroupBallotBitCount(subgroupBallot(true));
    float far = subgroupShuffleXor(v, 4u);
    float neighbours = 0.0;
    if ((gl_SubgroupInvocationID ^ 4u) < present) {
        neighbours += far;
    }
    v += subgroupShuffleXor(v, 1u);
    v += subgroupShuffleXor(v, 2u);
    if (i < n) {
        result[i] = v;
    }
}
