#version 450
// Wrong on purpose (tests/cli/algorithms_track_cli_test.cpp): the variance as
// sum(x^2) / COLS - mean^2, in one read. Right for rows near 0; for scores near 1000 the squares
// near 10^6 round to steps of 0.06 and the difference keeps little of a variance near 1.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint COLS = 1;
layout(constant_id = 4) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer Gamma { float gamma[]; };
layout(set = 0, binding = 2) readonly buffer Beta { float beta[]; };
layout(set = 0, binding = 3) writeonly buffer Result { float result[]; };

shared float cacheCount[SHARED_SIZE];  // the sums of x
shared float cacheMean[SHARED_SIZE];   // the sums of x^2
shared float cacheM2[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint row = gl_WorkGroupID.x * COLS;
    float s = 0.0;
    float sq = 0.0;
    for (uint c = t; c < COLS; c += wg) {
        float v = x[row + c];
        s += v;
        sq += v * v;
    }
    cacheCount[t] = s;
    cacheMean[t] = sq;
    barrier();
    uint h = 1;
    while (h * 2 < wg) {
        h *= 2;
    }
    for (; h > 0; h /= 2) {
        if (t < h && t + h < wg) {
            cacheCount[t] += cacheCount[t + h];
            cacheMean[t] += cacheMean[t + h];
        }
        barrier();
    }
    float mean = cacheCount[0] / float(COLS);
    float var = cacheMean[0] / float(COLS) - mean * mean;
    float scale = inversesqrt(max(var, 0.0) + 1e-5);
    for (uint c = t; c < COLS; c += wg) {
        result[row + c] = (x[row + c] - mean) * scale * gamma[c] + beta[c];
    }
}
