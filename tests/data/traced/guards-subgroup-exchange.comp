// puzzle: guards
// expect: clean
// not a mistake: neighbours within one subgroup exchange values through shared memory, ordered by
// subgroupMemoryBarrierShared() and subgroupBarrier() (Vulkan's memory model: no race, no barrier())
#version 450
#extension GL_KHR_shader_subgroup_basic : enable
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
shared float swap[gl_WorkGroupSize.x];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationIndex;
    uint n = uint(a.length());
    float v = 0.0;
    if (i < n) v = a[i]; // an if, not ?: (which may read a[i] for the spare threads too)
    swap[t] = v;
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    // The next thread of the same subgroup, wrapping round within it (the last subgroup of a
    // workgroup may be partial).
    uint first = t - gl_SubgroupInvocationID;
    uint count = min(gl_SubgroupSize, gl_WorkGroupSize.x - first);
    float neighbour = swap[first + (gl_SubgroupInvocationID + 1) % count];
    if (i < n) result[i] = v + 10.0 + 0.0 * neighbour;
}
