// puzzle: dot
// mistake: the tree handles an odd count only in its first round (thread 0 folds the last cell
// in), then halves: right for 5 threads (5 -> 4 -> 2 -> 1) and for powers of two, wrong for 24
// (24 -> 12 -> 6 -> 3 -> 1 loses a cell)
// fails: case 5
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) buffer Result { float result[]; };

shared float cache[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint n = uint(a.length());
    cache[t] = t < n ? a[t] * b[t] : 0.0;
    barrier();
    uint remaining = gl_WorkGroupSize.x;
    if (remaining % 2 == 1) {
        if (t == 0) cache[0] += cache[remaining - 1];
        barrier();
        remaining -= 1;
    }
    for (uint stride = remaining / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] += cache[t + stride];
        barrier();
    }
    if (t == 0) result[0] = cache[0];
}
