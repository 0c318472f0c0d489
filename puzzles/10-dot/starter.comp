#version 450
layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) buffer Result { float result[]; };  // one element

shared float cache[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x; // one workgroup: thread t owns element t
    // Your code here: products into cache, barrier(), add them up, one thread writes result[0].
}
