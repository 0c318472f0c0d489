// puzzle: pooling
// mistake: a window of two elements instead of three
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(a.length())) return;
    float sum = a[i];
    if (i >= 1) sum += a[i - 1];
    result[i] = sum;
}
