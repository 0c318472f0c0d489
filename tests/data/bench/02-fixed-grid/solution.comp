#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };
void main() {
    // Workgroups are laid out in x then y, as the puzzle's launch expressions say.
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    if (i < uint(a.length())) result[i] = a[i] + 10u;
}
