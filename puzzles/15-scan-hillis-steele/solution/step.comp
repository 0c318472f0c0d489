#version 450
// One Hillis-Steele step: dst[i] = src[i] + src[i - offset] (where i - offset exists).
// The puzzle runs this kernel ceil(log2(n)) times with offset = 1, 2, 4, ... and swaps
// src and dst between the runs.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };

layout(push_constant) uniform Step { uint offset; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= src.length()) return;  // spare threads of the last workgroup
    uint sum = src[i];
    // Cells before `offset` are final already, but they are still copied: the next step reads
    // the other buffer, which holds the values of two steps ago.
    if (i >= offset) sum += src[i - offset];
    dst[i] = sum;
}
