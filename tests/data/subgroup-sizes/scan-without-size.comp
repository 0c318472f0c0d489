#version 450
// scan-subgroup right at every size, reading neither gl_SubgroupSize nor a mask sized by it:
// elements by local id (lanes in order, as every device here lays them out), the subgroups
// counted from the last thread's gl_SubgroupID, their totals scanned by one thread. A workgroup
// of W threads is one subgroup at every size of W lanes or more, and does the same at each.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

shared uint subgroupTotals[SHARED_SIZE];
shared uint subgroups;

void main() {
    uint n = uint(a.length());
    uint e = gl_LocalInvocationID.x;
    uint v = e < n ? a[e] : 0u;
    uint incl = subgroupInclusiveAdd(v);
    uint total = subgroupAdd(v);
    if (subgroupElect()) subgroupTotals[gl_SubgroupID] = total;
    if (e == gl_WorkGroupSize.x - 1u) subgroups = gl_SubgroupID + 1u;
    barrier();
    if (e == 0u) {
        uint sum = 0u;
        for (uint s = 0u; s < subgroups; ++s) {
            uint t = subgroupTotals[s];
            subgroupTotals[s] = sum;
            sum += t;
        }
    }
    barrier();
    if (e < n) result[e] = subgroupTotals[gl_SubgroupID] + incl;
}
