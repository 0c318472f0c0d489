// puzzle: block-sum
// expect: race
// mistake: no barrier between the rounds of the tree
#version 450
layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };  // one cell per workgroup

shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;  // element of a
    uint t = gl_LocalInvocationID.x;   // cell of cache

    // 1. One global read per thread. The last workgroup may stick out past the end of a; its
    //    spare threads store 0, which changes no sum.
    float v = 0.0;
    if (i < uint(a.length())) {
        v = a[i];
    }
    cache[t] = v;
    barrier(); // the tree below reads other threads' cells

    // 2. Tree reduction over cells 0 .. remaining-1. Each round adds the upper part onto the
    //    lower part and the count shrinks to stride = ceil(remaining / 2):
    //        16 -> 8 -> 4 -> 2 -> 1     or, for odd counts,  6 -> 3 -> 2 -> 1
    //    Cells read in a round (stride .. remaining-1) are never written in that same round, so
    //    the threads do not race; the barrier ends the round for everybody. It is outside the
    //    `if` because all threads of the workgroup must reach every barrier.
    //    Leaving that barrier out often still "works" on a GPU whose threads run in lock-step
    //    groups, which is exactly why it is easy to miss: the race is there all the same.
    for (uint remaining = gl_WorkGroupSize.x; remaining > 1;) {
        uint stride = (remaining + 1) / 2;
        if (t + stride < remaining) {
            cache[t] += cache[t + stride];
        }
        remaining = stride;
    }

    // 3. One thread per workgroup publishes the workgroup's total in its own output cell.
    if (t == 0) {
        result[gl_WorkGroupID.x] = cache[0];
    }
}
