// puzzle: subgroup-broadcast
// expect: undefined shuffle
// mistake: the lanes that did not load the scale ask the elected lane for it, inside the branch
// the elected lane skips. Lane 0 does not run that shuffle, so what the others get is undefined
// (lavapipe happens to hand over lane 0's value: every output is right, and only the trace's
// ballot of the lanes that ran the shuffle shows it)
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint BLOCK = 1;
layout(set = 0, binding = 0) readonly buffer Q { int q[]; };
layout(set = 0, binding = 1) readonly buffer Scale { float scale[]; };
layout(set = 0, binding = 2) writeonly buffer Result { float result[]; };

void main() {
    uint b = gl_WorkGroupID.x;
    uint n = uint(q.length());
    uint end = min(b * BLOCK + BLOCK, n);
    float s = 0.0;
    bool elected = subgroupElect();
    if (elected) {
        s = scale[b];
    } else {
        s = subgroupShuffle(s, 0u); // lane 0 (the elected one) is not here
    }
    for (uint i = b * BLOCK + gl_LocalInvocationID.x; i < end; i += gl_WorkGroupSize.x)
        result[i] = float(q[i]) * s;
}
