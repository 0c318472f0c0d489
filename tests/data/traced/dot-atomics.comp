// puzzle: dot
// expect: clean
// note: correct with atomics on an int copy of the sum? No: floats have no atomics in core GLSL.
// This kernel adds the products with atomicAdd on a shared int, in fixed point (64ths: exact for
// the cases' inputs, whole numbers, quarters and eighths), and is race-free.
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) buffer Result { float result[]; };
shared int total;
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t == 0) total = 0;
    barrier();
    if (t < uint(a.length())) atomicAdd(total, int(a[t] * b[t] * 64.0));
    barrier();
    if (t == 0) result[0] = float(total) / 64.0;
}
