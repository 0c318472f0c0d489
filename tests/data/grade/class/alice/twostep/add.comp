#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 2) readonly buffer Tmp { float tmp[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    result[i] = tmp[i] + 10.0;
}
