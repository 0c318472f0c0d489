#version 450
// Thread 0 of each workgroup scans its tile serially: right for one tile only.
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer R { uint result[]; };
void main() {
    if (gl_LocalInvocationID.x != 0u) return;
    uint base = gl_WorkGroupID.x * gl_WorkGroupSize.x;
    uint sum = 0u;
    for (uint i = base; i < min(base + gl_WorkGroupSize.x, uint(a.length())); ++i) {
        sum += a[i];
        result[i] = sum;
    }
}
