// puzzle: scan-subgroup
// mistake: the subgroup totals are scanned by two nested subgroup scans, without a loop: right
// for up to lanes x lanes subgroups (64 with 8 lanes, and every workgroup with 32 lanes), wrong
// for 1024 threads in subgroups of 8 (128 subgroups)
// fails: case 7
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

shared uint subgroupTotals[SHARED_SIZE];
shared uint chunkTotals[SHARED_SIZE];

void main() {
    uint n = uint(a.length());
    uint e = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    uint numSubgroups = (gl_WorkGroupSize.x + gl_SubgroupSize - 1) / gl_SubgroupSize;
    uint v = e < n ? a[e] : 0u;
    uint incl = subgroupInclusiveAdd(v);
    uint total = subgroupAdd(v);
    if (subgroupElect()) subgroupTotals[gl_SubgroupID] = total;
    barrier();
    // Level 2: subgroup s scans the totals of subgroups s * lanes .. s * lanes + lanes - 1.
    uint s = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    uint sum = 0u;
    bool scans = gl_SubgroupID < gl_SubgroupSize;
    if (scans) {
        uint x = s < numSubgroups ? subgroupTotals[s] : 0u;
        sum = subgroupExclusiveAdd(x);
        uint chunk = subgroupAdd(x);
        if (subgroupElect()) chunkTotals[gl_SubgroupID] = chunk;
    }
    barrier();
    // Level 3: subgroup 0 scans the chunk totals (one scan: at most lanes of them).
    uint before = 0u;
    if (gl_SubgroupID == 0) {
        uint c = gl_SubgroupInvocationID * gl_SubgroupSize < numSubgroups ? chunkTotals[gl_SubgroupInvocationID] : 0u;
        before = subgroupExclusiveAdd(c);
    }
    barrier();
    if (scans && s < numSubgroups) subgroupTotals[s] = sum;
    if (gl_SubgroupID == 0 && gl_SubgroupInvocationID * gl_SubgroupSize < numSubgroups) chunkTotals[gl_SubgroupInvocationID] = before;
    barrier();
    if (e < n) result[e] = chunkTotals[gl_SubgroupID / gl_SubgroupSize] + subgroupTotals[gl_SubgroupID] + incl;
}
