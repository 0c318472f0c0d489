#version 450
// Wrong on purpose (tests/cli/algorithms_track_cli_test.cpp): the workgroup's thread 0 loads the
// scale, as if the workgroup were one subgroup. Only the first subgroup has thread 0; every other
// subgroup broadcasts its own s = 0. Right where the block's elements all fall in the first
// subgroup (workgroups of 4 to 8 threads here); wrong in the cases of 100 threads and more, on any
// device whose subgroups have 8 to 64 lanes.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint BLOCK = 1;

layout(set = 0, binding = 0) readonly buffer Q { int q[]; };
layout(set = 0, binding = 1) readonly buffer Scale { float scale[]; };
layout(set = 0, binding = 2) writeonly buffer Result { float result[]; };

void main() {
    uint b = gl_WorkGroupID.x;
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(q.length());
    uint end = min(b * BLOCK + BLOCK, n);

    float s = 0.0;
    if (t == 0) {  // the workgroup's first thread, not each subgroup's first lane
        s = scale[b];
    }
    s = subgroupBroadcastFirst(s);

    for (uint i = b * BLOCK + t; i < end; i += wg) {
        result[i] = float(q[i]) * s;
    }
}
