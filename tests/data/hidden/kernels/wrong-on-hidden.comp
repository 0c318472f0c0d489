#version 450
// Right on every case a student sees; wrong from the first element on in the hidden case (whose
// input starts at 7777), so the teacher's reason holds that case's values (expected 7787, got
// 7788) and nothing a student reads may.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint COUNT = 1;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < COUNT) result[i] = a[i] + (a[i] >= 7000u ? 11u : 10u);
}
