#version 450
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

void main() {
    uint local = gl_LocalInvocationID.x; // 0 .. gl_WorkGroupSize.x - 1
    uint group = gl_WorkGroupID.x;       // which workgroup this thread belongs to

    // Workgroups cover consecutive slices of the array: workgroup `group` starts after
    // `group` full workgroups. This sum is what gl_GlobalInvocationID.x holds.
    uint i = group * gl_WorkGroupSize.x + local;

    // The last workgroup may stick out past the end of the data.
    if (i < uint(a.length())) {
        result[i] = a[i] + 10.0;
    }
}
