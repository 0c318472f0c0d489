#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Acc { uint acc[]; };
layout(push_constant) uniform Step { uint amount; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(a.length())) acc[i] += a[i] + amount;
}
