#version 450
// Wrong on purpose (tests/cli/algorithms_track_cli_test.cpp): takes the row's FIRST score for its
// max. Softmax does not change when any m is taken out, so this is right on every row whose
// scores are close together, and overflows on a row with one large score elsewhere.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint COLS = 1;
layout(constant_id = 4) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

shared float cache[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint row = gl_WorkGroupID.x * COLS;
    float rowMax = x[row];
    float s = 0.0;
    for (uint c = t; c < COLS; c += wg) {
        s += exp(x[row + c] - rowMax);
    }
    cache[t] = s;
    barrier();
    for (uint step = 1; step < wg; step *= 2) {
        if (t % (2 * step) == 0 && t + step < wg) {
            cache[t] += cache[t + step];
        }
        barrier();
    }
    float rowSum = cache[0];
    for (uint c = t; c < COLS; c += wg) {
        result[row + c] = exp(x[row + c] - rowMax) / rowSum;
    }
}
