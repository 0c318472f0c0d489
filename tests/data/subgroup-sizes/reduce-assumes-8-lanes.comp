#version 450
// reduce-subgroup with the number of lanes written as 8 (lavapipe's own): right with 8 lanes,
// wrong with every other size.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

shared float partial[SHARED_SIZE];

void main() {
    uint wg = gl_WorkGroupSize.x;
    uint lanes = 8u;
    uint e = gl_SubgroupID * lanes + gl_SubgroupInvocationID;
    uint i = gl_WorkGroupID.x * wg + e;
    float v = i < uint(a.length()) ? a[i] : 0.0;
    float total = subgroupAdd(v);
    uint count = (wg + lanes - 1) / lanes;
    while (count > 1) {
        if (gl_SubgroupID < count && subgroupElect()) {
            partial[gl_SubgroupID] = total;
        }
        barrier();
        float x = e < count ? partial[e] : 0.0;
        barrier();
        total = subgroupAdd(x);
        count = (count + lanes - 1) / lanes;
    }
    if (e == 0) {
        result[gl_WorkGroupID.x] = total;
    }
}
