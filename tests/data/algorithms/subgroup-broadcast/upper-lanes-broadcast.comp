#version 450
// Not an answer: a broadcast that only lanes 3 and up run, for the trace's test. Its first
// active lane is lane 3, whose value is 3 + 10 * its workgroup's number.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint BLOCK = 1;

layout(set = 0, binding = 0) readonly buffer Q { int q[]; };
layout(set = 0, binding = 1) readonly buffer Scale { float scale[]; };
layout(set = 0, binding = 2) writeonly buffer Result { float result[]; };

void main() {
    uint lane = gl_SubgroupInvocationID;
    float s = float(lane) + 10.0 * float(gl_WorkGroupID.x);
    if (lane >= 3u) {
        s = subgroupBroadcastFirst(s);
    }
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(q.length())) {
        result[i] = s;
    }
}
