#version 450
// reduce-subgroup with a butterfly that stops at 32 lanes (a warp's): right with 4, 8, 16 and 32
// lanes, wrong with 64 (AMD's wave64), where lanes 32-63 never meet lanes 0-31.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

shared float partial[SHARED_SIZE];

float subgroupSum(float v) {
    for (uint offset = min(gl_SubgroupSize, 32u) / 2u; offset > 0u; offset /= 2u)
        v += subgroupShuffleXor(v, offset);
    return v;
}

void main() {
    uint wg = gl_WorkGroupSize.x;
    uint lanes = gl_SubgroupSize;
    uint e = gl_SubgroupID * lanes + gl_SubgroupInvocationID;
    uint i = gl_WorkGroupID.x * wg + e;
    float v = i < uint(a.length()) ? a[i] : 0.0;
    float total = subgroupSum(v);
    uint count = (wg + lanes - 1) / lanes;
    while (count > 1) {
        if (gl_SubgroupID < count && gl_SubgroupInvocationID == 0u) {
            partial[gl_SubgroupID] = total;
        }
        barrier();
        float x = e < count ? partial[e] : 0.0;
        barrier();
        total = subgroupSum(x);
        count = (count + lanes - 1) / lanes;
    }
    if (e == 0) {
        result[gl_WorkGroupID.x] = total;
    }
}
