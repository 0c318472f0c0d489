#version 450
// For the benchmark's timeout test: right in the end, but seconds per dispatch on a CPU device
// (every thread spins through 60000 rounds of trigonometry first).
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    float x = float(i);
    for (uint k = 0u; k < 60000u; ++k) x = sin(x) * 1.0001 + cos(x * 0.5);
    if (i < uint(a.length())) result[i] = a[i] + (x > 1e30 ? 1u : 10u);
}
