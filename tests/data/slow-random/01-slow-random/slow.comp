#version 450
#extension GL_KHR_shader_subgroup_arithmetic : enable
// Finite but never done in time: 16.7M threads x 50000 iterations of trigonometry (hours on a
// 2-core CPU device), with a subgroup sum so that the check would run it at other subgroup sizes.
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i % uint(a.length())];
    for (uint k = 0u; k < 50000u; ++k) x = sin(x) * 1.0001 + cos(x * 0.5);
    x += subgroupAdd(0.0);
    if (i < uint(a.length())) result[i] = x;
}
