#version 450
// butterfly-drops-missing-partner, but the lanes whose partner lane ^ 4 does not exist store a
// value computed from what it handed over (0 times it, plus their own): the undefined value
// reaches a store. Wrong, whatever the value turns out to be on this device.
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
    v += subgroupShuffleXor(v, 1u);
    v += subgroupShuffleXor(v, 2u);
    if (i < n) {
        if ((gl_SubgroupInvocationID ^ 4u) < present) {
            result[i] = v;
        } else {
            result[i] = v + 0.0 * far;
        }
    }
}
