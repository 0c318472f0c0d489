#version 450
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;

    // The launch is rounded up to whole workgroups, so some threads have no element.
    // length() returns an int; convert it once so the comparison is uint against uint.
    uint n = uint(a.length());

    // The guard: a thread past the end does nothing at all. Without it, thread n would read
    // a[n] and write result[n], which lie outside the buffers (undefined behaviour on a GPU:
    // garbage, a silent no-op, or another buffer's data, depending on the driver).
    if (i < n) {
        result[i] = a[i] + 10.0;
    }
}
