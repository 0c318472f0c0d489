#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint COLS = 1;         // the length of a row of x
layout(constant_id = 4) const uint SHARED_SIZE = 1;  // the workgroup size

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

// One (max, sum) pair per thread: sum is a sum of exp(score - max).
shared float cacheMax[SHARED_SIZE];
shared float cacheSum[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint row = gl_WorkGroupID.x * COLS;  // one workgroup per row: where its row starts in x

    // 1. One read of each column: a running max m and a running sum s of exp(x - m). When a
    //    score raises the max from m to newMax, every term already in s was exp(x - m) and
    //    must become exp(x - newMax) = exp(x - m) * exp(m - newMax): multiply s by
    //    exp(m - newMax) (at most 1), then add the new term exp(v - newMax).
    //    m starts at the lowest float rather than -infinity: it still loses every max, and an
    //    empty pair merged with an empty pair below computes exp(m - m) = 1, where -infinity
    //    would give exp(-inf + inf) = NaN. An empty pair has s = 0, so it adds nothing.
    float m = -3.4028235e38;
    float s = 0.0;
    for (uint c = t; c < COLS; c += wg) {
        float v = x[row + c];
        float newMax = max(m, v);
        s = s * exp(m - newMax) + exp(v - newMax);
        m = newMax;
    }
    cacheMax[t] = m;
    cacheSum[t] = s;
    barrier();

    // 2. Merge the pairs as a tree (busy threads at the bottom, as in Reduce without
    //    divergence). Two pairs merge like one new score: rescale both sums to the larger max.
    uint h = 1;
    while (h * 2 < wg) {
        h *= 2;
    }
    for (; h > 0; h /= 2) {
        if (t < h && t + h < wg) {
            float m1 = cacheMax[t];
            float m2 = cacheMax[t + h];
            float both = max(m1, m2);
            cacheSum[t] = cacheSum[t] * exp(m1 - both) + cacheSum[t + h] * exp(m2 - both);
            cacheMax[t] = both;
        }
        barrier();
    }
    float rowMax = cacheMax[0];
    float rowSum = cacheSum[0];

    // 3. The second and last read of the row: each share.
    for (uint c = t; c < COLS; c += wg) {
        result[row + c] = exp(x[row + c] - rowMax) / rowSum;
    }
}
