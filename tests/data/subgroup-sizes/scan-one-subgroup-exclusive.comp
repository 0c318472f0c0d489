#version 450
// scan-subgroup as scan-without-size.comp, but exclusive where the workgroup is one subgroup:
// wrong at a size for every case whose workgroup fits in one subgroup there, and alike at every
// larger size (such a case is run at the smallest and carried by the others).
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
    if (e < n) result[e] = subgroupTotals[gl_SubgroupID] + (subgroups == 1u ? incl - v : incl);
}
