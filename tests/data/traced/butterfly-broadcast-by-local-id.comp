// puzzle: butterfly
// expect: undefined shuffle
// mistake: after the butterfly every lane of a team holds its total, but the kernel then takes it
// from the team's first lane named by the local id (gl_LocalInvocationID.x & ~3), not the lane id.
// Past the first subgroup that lane does not exist (lane 8 and up on lavapipe's 8 lanes): the
// value is undefined. lavapipe happens to wrap the index, so every output is right there.
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
    v += subgroupShuffleXor(v, 1u);
    v += subgroupShuffleXor(v, 2u);
    float total = subgroupShuffle(v, gl_LocalInvocationID.x & ~3u);
    if (i < n) {
        result[i] = total;
    }
}
