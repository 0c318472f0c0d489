// endless: a loop on a value that never changes (0 points)
#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint k = 0u;
    while (k < 1u) {
        k = k * 2u;
    }
    result[i] = a[i] + 10.0;
}
