#version 450
// The benchmark's yardstick: the simplest kernel that moves every byte once. Each thread copies
// one uvec4 (16 bytes); the bandwidth it reaches is what a scan is compared against.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Src { uvec4 src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uvec4 dst[]; };
layout(push_constant) uniform Count { uint count; } pc; // uvec4s to copy
void main() {
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    if (i < pc.count) dst[i] = src[i];
}
