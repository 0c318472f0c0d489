#version 450
layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size + 2 (the block and the two elements before it).
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

// tile[0], tile[1]: the two elements before this workgroup's block (0 before the array starts);
// tile[t + 2]: the block's element t.
shared float tile[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    uint n = uint(a.length());

    // 1. Every thread parks its element of a (0 past the end) in the tile: one global read.
    tile[t + 2u] = i < n ? a[i] : 0.0;
    //    Threads 0 and 1 also fetch the two elements before the block (the halo): a second read.
    if (t < 2u) {
        tile[t] = i >= 2u ? a[i - 2u] : 0.0;
    }

    // 2. Thread t reads tile[t] and tile[t + 1], which threads t - 2 and t - 1 wrote (or, for
    //    t < 2, the halo that threads 0 and 1 wrote). Nothing in GLSL says those threads have
    //    run yet: a workgroup's threads run in subgroups (8 lanes on lavapipe, 32 on NVIDIA,
    //    64 on some AMD GPUs) whose order is up to the device. Lavapipe happens to run its
    //    subgroups one after the other, lowest first, so the left neighbours have always written
    //    by the time they are read there; a GPU that runs subgroup 1 before subgroup 0 has
    //    finished reads stale cells at every subgroup's first lanes. barrier() waits until every
    //    thread of the workgroup has reached it, and makes their shared-memory writes visible:
    //    it ends the round in which the tile is written, before the round in which it is read.
    //    It stands outside every `if`: all threads of a workgroup must reach it.
    barrier();

    // 3. The moving sum of three: this element and the two before it, all from the tile.
    if (i < n) {
        result[i] = tile[t] + tile[t + 1u] + tile[t + 2u];
    }
}
