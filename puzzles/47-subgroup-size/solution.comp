#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
// Length of the shared array: ceil(WG / 4), one cell per subgroup of at least 4 lanes.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { uint result[]; };  // one per workgroup

shared uint subgroupSums[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;

    uint v = i < uint(a.length()) ? a[i] : 0u;
    // The sum over the subgroup, in registers: no shared memory, no barrier.
    uint s = subgroupAdd(v);

    // The broken kernel took a subgroup to be 32 threads ("warp = t / 32, lane = t % 32"): true
    // on NVIDIA, not on lavapipe (8 lanes) nor on many AMD GPUs (64). With 8 lanes, subgroupAdd
    // summed 8 values, and only the subgroups whose first thread is a multiple of 32 published
    // theirs: the sums came out too small. With 64 lanes, lanes 0 and 32 of one subgroup both
    // published the same 64-value sum: too large. The device tells the kernel its own numbers:
    //     gl_SubgroupSize          lanes per subgroup (8, 32, 64, ...)
    //     gl_SubgroupID            which subgroup of the workgroup this thread is in
    //     gl_SubgroupInvocationID  this thread's lane in its subgroup
    // and the number of subgroups is ceil(WG / gl_SubgroupSize): the last one may be partly
    // filled (100 threads in subgroups of 32: three full ones and one of 4). gl_NumSubgroups
    // should say so too, but lavapipe's rounds it down, so count them here.
    if (gl_SubgroupInvocationID == 0u) {
        subgroupSums[gl_SubgroupID] = s;
    }
    barrier();

    // Thread 0 adds up the subgroups' sums, however many the device made.
    if (t == 0u) {
        uint subgroups = (gl_WorkGroupSize.x + gl_SubgroupSize - 1u) / gl_SubgroupSize;
        uint total = 0u;
        for (uint g = 0u; g < subgroups; ++g) {
            total += subgroupSums[g];
        }
        result[gl_WorkGroupID.x] = total;
    }
}
