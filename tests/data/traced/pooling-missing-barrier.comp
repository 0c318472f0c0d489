// puzzle: pooling
// expect: race
// mistake: no barrier between filling the cache and reading the neighbours' cells
#version 450
layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_LocalInvocationID.x; // one workgroup: local and global numbers agree
    uint n = uint(a.length());

    // Each element is needed by three threads (i, i + 1, i + 2). Reading it from global memory
    // three times would blow the budget, so each thread fetches its own element ONCE into
    // shared memory...
    if (i < n) {
        cache[i] = a[i];
    }

    // ...and waits until its neighbours have done the same. This barrier really matters: thread
    // i is about to read cache[i - 1] and cache[i - 2], which other threads wrote. Without it,
    // it could read them before they are written.

    if (i < n) {
        float sum = cache[i];
        // i is unsigned: i - 1 at i = 0 would wrap around to a huge index, so test first.
        if (i >= 1) {
            sum += cache[i - 1];
        }
        if (i >= 2) {
            sum += cache[i - 2];
        }
        result[i] = sum;
    }
}
