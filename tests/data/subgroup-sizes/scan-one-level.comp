#version 450
// scan-subgroup whose first subgroup scans the subgroups' totals in one step, as if there were
// never more subgroups than lanes: right wherever a workgroup has at most gl_SubgroupSize
// subgroups (up to 1024 threads with 32 lanes), wrong on lavapipe's sizes at the larger cases,
// and at each size from another case on.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

shared uint subgroupTotals[SHARED_SIZE];

void main() {
    uint n = uint(a.length());
    uint e = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    uint numSubgroups = (gl_WorkGroupSize.x + gl_SubgroupSize - 1) / gl_SubgroupSize;
    uint v = e < n ? a[e] : 0u;
    uint incl = subgroupInclusiveAdd(v);
    uint total = subgroupAdd(v);
    if (subgroupElect()) {
        subgroupTotals[gl_SubgroupID] = total;
    }
    barrier();
    if (gl_SubgroupID == 0) {
        uint k = gl_SubgroupInvocationID;
        uint s = k < numSubgroups ? subgroupTotals[k] : 0u;
        uint before = subgroupExclusiveAdd(s);
        if (k < numSubgroups) subgroupTotals[k] = before;
    }
    barrier();
    if (e < n) {
        result[e] = subgroupTotals[gl_SubgroupID] + incl;
    }
}
