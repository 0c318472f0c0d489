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

    float s = 0.0;
    // Your code here: one lane of each subgroup loads scale[b] (subgroupElect()), then every
    // lane takes it from that lane (subgroupBroadcastFirst).

    for (uint i = b * BLOCK + t; i < end; i += wg) {
        result[i] = float(q[i]) * s;
    }
}
