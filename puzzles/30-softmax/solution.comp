#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint COLS = 1;         // the length of a row of x
layout(constant_id = 4) const uint SHARED_SIZE = 1;  // the workgroup size

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

shared float cache[SHARED_SIZE];

// cache[0] becomes the max (takeMax) or the sum of cache[0 .. WG-1]: the tree of Reduce without
// divergence, busy threads at the bottom. Every thread of the workgroup calls it.
void combine(bool takeMax) {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint s = 1;
    while (s * 2 < wg) {
        s *= 2;
    }
    for (; s > 0; s /= 2) {
        if (t < s && t + s < wg) {
            cache[t] = takeMax ? max(cache[t], cache[t + s]) : cache[t] + cache[t + s];
        }
        barrier();
    }
}

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint row = gl_WorkGroupID.x * COLS;  // one workgroup per row: where its row starts in x

    // 1. The row's max. Thread t looks at columns t, t + WG, t + 2 WG, ... (a row is often longer
    //    than the workgroup); a thread with no column offers -infinity, which loses every max.
    float m = uintBitsToFloat(0xff800000u);  // -infinity
    for (uint c = t; c < COLS; c += wg) {
        m = max(m, x[row + c]);
    }
    cache[t] = m;
    barrier();
    combine(true);
    float rowMax = cache[0];
    barrier();  // everyone has read cache[0] before step 2 writes over it

    // 2. The sum of exp(x - rowMax). Why subtract the max: exp(x) overflows a float above
    //    x = 88.7 (and rounds to 0 below about -104), so exp(x) / sum is inf / inf = NaN for rows
    //    of large (or very negative) values. exp(x - rowMax) is at most exp(0) = 1 and the
    //    largest term is exactly 1, so the sum is between 1 and COLS; dividing by it gives the
    //    same fractions, since exp(x - m) / sum exp(x - m) = exp(x) / sum exp(x) for any m.
    float s = 0.0;
    for (uint c = t; c < COLS; c += wg) {
        s += exp(x[row + c] - rowMax);
    }
    cache[t] = s;
    barrier();
    combine(false);
    float rowSum = cache[0];

    // 3. Normalise: a third read of the row. (Softmax online computes the max and the sum in
    //    one read, rescaling the running sum whenever the max grows.)
    for (uint c = t; c < COLS; c += wg) {
        result[row + c] = exp(x[row + c] - rowMax) / rowSum;
    }
}
