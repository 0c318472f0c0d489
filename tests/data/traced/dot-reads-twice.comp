// puzzle: dot
// expect: read limit
// mistake: reads each input twice (the second reads add nothing, but they cost)
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
    uint n = uint(a.length());

    // 1. Each thread computes one product: its two global reads. Threads past the end
    //    contribute 0, so the sum below can treat every cell the same way.
    float product = 0.0;
    if (t < n) {
        product = a[t] * b[t] + 0.0 * (a[t] + b[t]);
    }
    cache[t] = product;
    barrier(); // all products are in shared memory before anyone adds them

    // 2. Tree reduction. Cells 0 .. remaining-1 still hold partial sums. Each round folds the
    //    upper part onto the lower part: cell t += cell t + stride, with stride rounded up so
    //    an odd count works too (5 -> 3 -> 2 -> 1). 8 values take 3 rounds, 64 take 6.
    //    Within one round the cells read (stride .. remaining-1) and the cells written
    //    (0 .. remaining-stride-1) never overlap, so the threads do not race; the barrier at the
    //    end of a round makes its sums visible to the next round.
    //    Every thread runs the loop, because barrier() must be reached by all of them; the
    //    `if` only decides who adds.
    for (uint remaining = gl_WorkGroupSize.x; remaining > 1;) {
        uint stride = (remaining + 1) / 2;
        if (t + stride < remaining) {
            cache[t] += cache[t + stride];
        }
        barrier();
        remaining = stride;
    }

    // 3. The whole sum has gathered in cache[0]. One thread writes it: a single global write.
    if (t == 0) {
        result[0] = cache[0];
    }
}
