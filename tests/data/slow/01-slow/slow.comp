#version 450
// Finite but never done in time: 16.7M threads x 50000 iterations of trigonometry (hours on a
// 2-core CPU device; lavapipe stops any loop at 65535 iterations, so the launch is what is large).
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    for (uint k = 0u; k < 50000u; ++k) x = sin(x) * 1.0001 + cos(x * 0.5);
    result[i] = x;
}
