// puzzle: guards
// expect: race
// mistake: the neighbour of a subgroup's last thread is the first thread of the next subgroup,
// which subgroupBarrier() does not wait for: a race between subgroups (64 threads span several)
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
    float neighbour = swap[(t + 1) % gl_WorkGroupSize.x]; // crosses into the next subgroup
    if (i < n) result[i] = v + 10.0 + 0.0 * neighbour;
}
