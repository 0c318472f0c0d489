#version 450
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) buffer Result { float result[]; };

void main() {
    // Thread i owns position i in all three buffers.
    uint i = gl_GlobalInvocationID.x;

    // Two reads (a[i] and b[i]) and one write per thread. Neighbouring threads touch
    // neighbouring addresses, which is the access pattern GPUs love ("coalesced").
    result[i] = a[i] + b[i];
}
