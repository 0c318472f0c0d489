#version 450
// Wrong on purpose (tests/cli/algorithms_track_cli_test.cpp): every lane loads the block's scale
// itself. The values are right, but a workgroup loads `scale` WG times, over the rule's
// ceil(WG / 4), in every case.
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

    float s = scale[b];  // every lane: WG loads of one value

    for (uint i = b * BLOCK + t; i < end; i += wg) {
        result[i] = float(q[i]) * s;
    }
}
