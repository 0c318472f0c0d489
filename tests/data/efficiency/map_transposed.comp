#version 450
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

void main() {
    // Correct but uncoalesced: thread l of workgroup w takes element l * workgroups + w, so
    // neighbouring threads of a workgroup touch elements gl_NumWorkGroups.x apart.
    uint j = gl_LocalInvocationID.x * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    result[j] = a[j] + 10.0;
}
