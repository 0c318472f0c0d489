// puzzle: butterfly
// expect: undefined shuffle
// mistake: a butterfly over the whole subgroup written for NVIDIA's 32 lanes (masks 16, 8, 4
// first), whose team sums it then keeps from the last two steps only by subtracting. With 8
// lanes, lanes take values from lanes 16 and up, which do not exist: undefined, whatever the
// outputs say.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = uint(a.length());
    float v = i < n ? a[i] : 0.0;
    float wide = v + subgroupShuffleXor(v, 16u);
    v += subgroupShuffleXor(v, 1u);
    v += subgroupShuffleXor(v, 2u);
    if (i < n) {
        result[i] = v + 0.0 * wide;
    }
}
