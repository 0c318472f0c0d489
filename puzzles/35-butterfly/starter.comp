#version 450
// Subgroup operations (core in Vulkan 1.1): shuffles exchange values between the lanes of a
// subgroup directly, without memory.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;  // element i is lane i % 4 of its team
    uint n = uint(a.length());
    float v = i < n ? a[i] : 0.0;
    // Your code here: two exchanges with subgroupShuffleXor, then result[i] = v where i < n.
}
