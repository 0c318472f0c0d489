#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 2) buffer Tmp { float tmp[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    tmp[i] = a[i];
}
