#version 450
// Wrong on purpose (tests/cli/algorithms_track_cli_test.cpp): the way without subgroups, one load
// by thread 0 into shared memory and a barrier. The values are right and a workgroup loads scale
// once, but the puzzle's rule forbids shared memory: it fails every case on that rule.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint BLOCK = 1;

layout(set = 0, binding = 0) readonly buffer Q { int q[]; };
layout(set = 0, binding = 1) readonly buffer Scale { float scale[]; };
layout(set = 0, binding = 2) writeonly buffer Result { float result[]; };

shared float blockScale;

void main() {
    uint b = gl_WorkGroupID.x;
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(q.length());
    uint end = min(b * BLOCK + BLOCK, n);

    if (t == 0) {
        blockScale = scale[b];
    }
    barrier();
    float s = blockScale;

    for (uint i = b * BLOCK + t; i < end; i += wg) {
        result[i] = float(q[i]) * s;
    }
}
