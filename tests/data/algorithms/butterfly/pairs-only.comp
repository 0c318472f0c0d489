#version 450
// Wrong on purpose (tests/cli/algorithms_track_cli_test.cpp): one exchange only, so every lane
// ends with its pair's sum, not its team's.
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

    // Every lane of a team takes part in both exchanges, so a thread past the end still joins
    // them with a 0 (here a whole team is past the end or none of it: n is a multiple of 4).
    float v = i < n ? a[i] : 0.0;

    // The butterfly. subgroupShuffleXor(v, m) returns v of the lane whose id differs from mine
    // in the bits of m: with m = 1, lanes 0 and 1 swap, and 2 and 3; with m = 2, lanes 0 and 2,
    // and 1 and 3. After the first exchange each lane holds its pair's sum, after the second
    // its team's: every lane ends with the total, in log2(4) = 2 steps, no memory, no barrier.
    //     lane:        0         1         2         3
    //     xor 1:    a0 + a1   a0 + a1   a2 + a3   a2 + a3
    //     xor 2:    total     total     total     total
    // Teams of 4 never cross a subgroup: subgroups have at least 4 lanes on every device we
    // know (4 to 128, always a power of two), so lane ids of one team differ only in bits 0-1.
    v += subgroupShuffleXor(v, 1u);


    if (i < n) {
        result[i] = v;
    }
}
