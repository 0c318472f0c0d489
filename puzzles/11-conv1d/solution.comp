#version 450
layout(local_size_x_id = 0) in;
// Room for a workgroup's slice of a plus its halo: workgroup size + 4.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };   // 1 to 4 values
layout(set = 0, binding = 2) buffer Result { float result[]; };

const uint MAX_KERNEL = 4;
shared float tile[SHARED_SIZE];   // a's slice for this workgroup, then the halo
shared float kern[MAX_KERNEL];    // a copy of b

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint start = gl_WorkGroupID.x * wg; // first element of this workgroup's slice
    uint n = uint(a.length());
    uint k = uint(b.length());

    // Read 1 (every thread): its own element. Past the end we store 0, so the sum below can
    // run over all k taps without testing for the end of a: missing terms simply add 0.
    float mine = 0.0;
    if (i < n) {
        mine = a[i];
    }
    tile[t] = mine;

    // Read 2 (a few threads): the data no thread of this workgroup owns.
    //  - threads 0 .. k-1 copy the kernel b into shared memory;
    //  - threads k .. 2k-2 fetch the halo: the k-1 elements right after the slice, which belong
    //    to the next workgroup (or lie past the end of a, then 0).
    // Giving these jobs to different threads keeps everyone at 2 reads; it needs 2k - 1 <= 7
    // threads per workgroup, and workgroups here have at least 8.
    if (t < k) {
        kern[t] = b[t];
    } else if (t < 2 * k - 1) {
        uint h = t - k;      // 0 .. k-2: position in the halo
        uint j = start + wg + h;
        float v = 0.0;
        if (j < n) {
            v = a[j];
        }
        tile[wg + h] = v;
    }

    // Thread t is about to read tile[t + 1 .. t + k - 1] and all of kern, which other threads
    // wrote: wait for them.
    barrier();

    if (i < n) {
        float acc = 0.0;
        for (uint j = 0; j < k; ++j) {
            acc += tile[t + j] * kern[j];
        }
        result[i] = acc;
    }
}
