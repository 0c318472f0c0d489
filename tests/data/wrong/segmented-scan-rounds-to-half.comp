// puzzle: segmented-scan
// mistake: the rounds stop at distance WG / 2, as if a block were a power of two wide: a
// segment longer than 32 in a block of 48 misses the sums of its first cells
// fails: case 8
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;  // the workgroup size

layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) readonly buffer Flags { uint flags[]; };  // 1: a segment starts
layout(set = 0, binding = 2) writeonly buffer Result { int result[]; };

// Each cell is a pair: the running sum, and whether a head lies anywhere in its range.
shared int sums[SHARED_SIZE];
shared uint heads[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(a.length());

    // 1. One pair per element. A thread past the end is a head with value 0: it only ever
    //    sits AFTER the real elements, and a scan looks only to the left.
    int v = 0;
    uint f = 1u;
    if (i < n) {
        v = a[i];
        f = flags[i];
    }
    sums[t] = v;
    heads[t] = f;
    barrier();

    // 2. Hillis-Steele, with the segmented operator. After the round with distance d, cell t
    //    covers elements t - 2d + 1 .. t (or from the block's start). Combining the range to its
    //    left, (pf, pv), with its own, (f, v):
    //        if the own range holds no head, its sum continues the left one: v = pv + v;
    //        else a segment starts inside it and the left sum stops there: v stays;
    //        either way the combined range holds a head if either did: f = pf | f.
    //    The reads and the writes of a round are split by a barrier: a cell must not change
    //    while its right neighbour at distance d still reads it.
    for (uint d = 1; d <= wg / 2; d *= 2) {
        int pv = 0;
        uint pf = 0u;
        if (t >= d) {
            pv = sums[t - d];
            pf = heads[t - d];
        }
        barrier();
        if (f == 0u) {
            v += pv;
        }
        f |= pf;
        sums[t] = v;
        heads[t] = f;
        barrier();
    }

    if (i < n) {
        result[i] = v;
    }
}
