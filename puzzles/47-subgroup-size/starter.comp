#version 450
// The kernel as it was handed to you: it compiles, and it is wrong. See the statement.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
// Length of the shared array: ceil(WG / 4), one cell per subgroup of at least 4 lanes.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { uint result[]; };  // one per workgroup

shared uint warpSums[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;

    uint v = i < uint(a.length()) ? a[i] : 0u;
    // The sum over the warp, in registers: no shared memory, no barrier.
    uint s = subgroupAdd(v);

    // Warps are 32 threads: thread t is lane t % 32 of warp t / 32. Lane 0 of each warp
    // publishes the warp's sum.
    uint warp = t / 32u;
    uint lane = t % 32u;
    if (lane == 0u) {
        warpSums[warp] = s;
    }
    barrier();

    // Thread 0 adds up the warps' sums.
    if (t == 0u) {
        uint total = 0u;
        for (uint w = 0u; w < (gl_WorkGroupSize.x + 31u) / 32u; ++w) {
            total += warpSums[w];
        }
        result[gl_WorkGroupID.x] = total;
    }
}
