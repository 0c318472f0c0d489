#version 450
// Subgroup operations (core in Vulkan 1.1): basic for subgroupElect(), ballot for
// subgroupBroadcastFirst (and subgroupBroadcast).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint BLOCK = 1;  // elements per block: one workgroup per block

layout(set = 0, binding = 0) readonly buffer Q { int q[]; };               // quantized values
layout(set = 0, binding = 1) readonly buffer Scale { float scale[]; };     // one per block
layout(set = 0, binding = 2) writeonly buffer Result { float result[]; };

void main() {
    uint b = gl_WorkGroupID.x;  // workgroup b dequantizes block b
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(q.length());
    uint end = min(b * BLOCK + BLOCK, n);  // the last block may be shorter

    // 1. One lane per subgroup loads the block's scale. subgroupElect() is true in exactly one
    //    lane of each subgroup: the first active one. The other lanes keep 0 for now.
    float s = 0.0;
    if (subgroupElect()) {
        s = scale[b];
    }

    // 2. ... and hands it to the others. subgroupBroadcastFirst(s) returns, in every active
    //    lane, the value of s in the first active lane: the elected one. No shared memory, no
    //    barrier: the value goes from register to register inside the subgroup.
    //        lane:                       0      1      2   ...
    //        s after the load:          0.5     0      0
    //        subgroupBroadcastFirst(s): 0.5    0.5    0.5
    //    Every lane must reach this line, also those with no element to write (a lane that does
    //    not take part gets nothing), so it stands outside any branch. A workgroup of 256 threads
    //    makes 32 loads on lavapipe (subgroups of 8) and 8 on NVIDIA (32), never more than
    //    ceil(WG / 4): a subgroup has at least 4 lanes.
    s = subgroupBroadcastFirst(s);

    // 3. The block's elements, WG apart: a block may be longer or shorter than the workgroup.
    for (uint i = b * BLOCK + t; i < end; i += wg) {
        result[i] = float(q[i]) * s;
    }
}
