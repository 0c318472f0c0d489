#version 450
layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };  // one per workgroup

shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;

    // Every thread loads one reading (0 past the end of a).
    cache[t] = i < uint(a.length()) ? a[i] : 0.0;
    barrier();

    // The broken kernel added the block up in one running total, in order: 16777216, then
    // + 0.5, + 0.75, ... A float has 24 bits of mantissa; next to 16777216 = 2^24 the floats are
    // 2 apart, so 16777216 + 0.75 rounds back to 16777216. Every reading below 1 vanished, one
    // after the other, however many there were. Float addition is not associative: the same
    // numbers added in another order give another sum.
    // A tree adds them pairwise. Most additions are between readings or sums of readings, and
    // are exact; the offset's cell takes, in round r, a sum of about 2^(r-1) readings, each time
    // rounding at most once (by at most 1 at 2^24). The first such sums are lost, but they are
    // small, and the later ones (2, 4, 8, 16 ...) count. log2(WG) roundings, not WG: the error
    // stays a few units where the running total lost every reading. The order is fixed by the
    // code, not by timing, so the result is the same on every run.
    //     16 -> 8 -> 4 -> 2 -> 1 partial sums, or for odd counts 6 -> 3 -> 2 -> 1.
    for (uint remaining = gl_WorkGroupSize.x; remaining > 1u;) {
        uint stride = (remaining + 1u) / 2u;
        if (t + stride < remaining) {
            cache[t] += cache[t + stride];
        }
        barrier();
        remaining = stride;
    }

    if (t == 0u) {
        result[gl_WorkGroupID.x] = cache[0];
    }
}
