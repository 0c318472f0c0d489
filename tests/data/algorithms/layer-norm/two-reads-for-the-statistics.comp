#version 450
// Wrong on purpose (tests/cli/algorithms_track_cli_test.cpp): the textbook two passes, the mean
// first and then the squared distances from it. Right values, but x is read in three loops
// (and twice in the squared distance as written), over the puzzle's 4 * ceil_div(COLS, WG).
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint COLS = 1;
layout(constant_id = 4) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer Gamma { float gamma[]; };
layout(set = 0, binding = 2) readonly buffer Beta { float beta[]; };
layout(set = 0, binding = 3) writeonly buffer Result { float result[]; };

shared float cacheCount[SHARED_SIZE];
shared float cacheMean[SHARED_SIZE];
shared float cacheM2[SHARED_SIZE];

// cacheMean[0] = the sum of cacheMean[0 .. WG-1].
void sumUp() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint h = 1;
    while (h * 2 < wg) {
        h *= 2;
    }
    for (; h > 0; h /= 2) {
        if (t < h && t + h < wg) {
            cacheMean[t] += cacheMean[t + h];
        }
        barrier();
    }
}

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint row = gl_WorkGroupID.x * COLS;
    float s = 0.0;
    for (uint c = t; c < COLS; c += wg) {
        s += x[row + c];
    }
    cacheMean[t] = s;
    barrier();
    sumUp();
    float mean = cacheMean[0] / float(COLS);
    barrier();
    float d = 0.0;
    for (uint c = t; c < COLS; c += wg) {
        d += (x[row + c] - mean) * (x[row + c] - mean);
    }
    cacheMean[t] = d;
    barrier();
    sumUp();
    float scale = inversesqrt(cacheMean[0] / float(COLS) + 1e-5);
    for (uint c = t; c < COLS; c += wg) {
        result[row + c] = (x[row + c] - mean) * scale * gamma[c] + beta[c];
    }
}
