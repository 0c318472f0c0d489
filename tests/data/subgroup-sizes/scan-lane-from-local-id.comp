#version 450
// scan-subgroup with the lane and the subgroup taken from the local id as if subgroups had 8
// lanes (local id % 8, local id / 8): right with 8 lanes, wrong with 4 and 16.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

shared uint subgroupTotals[SHARED_SIZE];

void main() {
    uint n = uint(a.length());
    uint t = gl_LocalInvocationID.x;
    uint lane = t % 8u;
    uint subgroup = t / 8u;
    uint numSubgroups = (gl_WorkGroupSize.x + 7u) / 8u;
    uint v = t < n ? a[t] : 0u;
    uint incl = subgroupInclusiveAdd(v);
    uint total = subgroupAdd(v);
    if (lane == 0u) {
        subgroupTotals[subgroup] = total;
    }
    barrier();
    if (t == 0u) {
        uint carry = 0u;
        for (uint k = 0u; k < numSubgroups; ++k) {
            uint s = subgroupTotals[k];
            subgroupTotals[k] = carry;
            carry += s;
        }
    }
    barrier();
    if (t < n) {
        result[t] = subgroupTotals[subgroup] + incl;
    }
}
