#version 450
layout(local_size_x_id = 0) in;
// Length of the shared array, set by the test case (at least the workgroup size).
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

// One copy per workgroup, visible to all of its threads.
shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;     // index into the buffers
    uint local = gl_LocalInvocationID.x;  // index into cache
    // Your code here: a -> cache, barrier(), cache (mirrored) -> result.
}
