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
    // Your code here: 1. one loop over columns t, t + wg, ... keeping a running count, mean and
    // m2; 2. merge the workgroup's triples in shared memory; 3. one more loop:
    // result = (x - mean) / sqrt(m2 / COLS + EPSILON) * gamma[c] + beta[c].
}
