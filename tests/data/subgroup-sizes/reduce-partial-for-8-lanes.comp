#version 450
// reduce-subgroup with one cell of `partial` per subgroup of 8 lanes or more (WG / 8 cells):
// right with 8 and 16 lanes; with 4 there are WG / 4 subgroups, and the elected lanes of the
// second half store past the end of partial (values that may still come out right).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

shared float partial[SHARED_SIZE / 8];

void main() {
    uint wg = gl_WorkGroupSize.x;
    uint lanes = gl_SubgroupSize;
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
