#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint COLS = 1;         // the length of a row of x
layout(constant_id = 4) const uint SHARED_SIZE = 1;  // the workgroup size

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer Gamma { float gamma[]; };  // scale, per column
layout(set = 0, binding = 2) readonly buffer Beta { float beta[]; };    // shift, per column
layout(set = 0, binding = 3) writeonly buffer Result { float result[]; };

const float EPSILON = 1e-5;

// One (count, mean, m2) triple per thread: m2 is the sum of squared distances from the mean.
shared float cacheCount[SHARED_SIZE];
shared float cacheMean[SHARED_SIZE];
shared float cacheM2[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint row = gl_WorkGroupID.x * COLS;  // one workgroup per row: where its row starts in x

    // 1. One read of each column: Welford's running mean and m2. Each new value v moves the
    //    mean by (v - mean) / count, and adds (v - old mean) * (v - new mean) to m2. Every
    //    quantity stays near the spread of the data, never near the square of the values:
    //    the sum of squares minus count * mean^2 loses everything to rounding when the values
    //    sit far from 0 (1000 +- 1: squares near 10^6, where a float's step is 0.06).
    float count = 0.0;
    float mean = 0.0;
    float m2 = 0.0;
    for (uint c = t; c < COLS; c += wg) {
        float v = x[row + c];
        count += 1.0;
        float delta = v - mean;
        mean += delta / count;
        m2 += delta * (v - mean);
    }
    cacheCount[t] = count;
    cacheMean[t] = mean;
    cacheM2[t] = m2;
    barrier();

    // 2. Merge the triples as a tree (Chan's formula): the means meet weighted by their counts,
    //    and the m2s add up, plus the spread between the two means. A thread with no column
    //    has count 0: two of them merge to count 0, which must not divide.
    uint h = 1;
    while (h * 2 < wg) {
        h *= 2;
    }
    for (; h > 0; h /= 2) {
        if (t < h && t + h < wg) {
            float na = cacheCount[t];
            float nb = cacheCount[t + h];
            float n = na + nb;
            if (n > 0.0) {
                float delta = cacheMean[t + h] - cacheMean[t];
                cacheMean[t] += delta * nb / n;
                cacheM2[t] += cacheM2[t + h] + delta * delta * na * nb / n;
                cacheCount[t] = n;
            }
        }
        barrier();
    }
    float rowMean = cacheMean[0];
    float scale = inversesqrt(cacheM2[0] / float(COLS) + EPSILON);  // 1 / standard deviation

    // 3. The second read of the row: normalise, then the learned scale and shift per column.
    for (uint c = t; c < COLS; c += wg) {
        result[row + c] = (x[row + c] - rowMean) * scale * gamma[c] + beta[c];
    }
}
