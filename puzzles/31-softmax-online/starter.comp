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
    // Your code here: 1. one loop over columns t, t + wg, ... keeping a running max and a
    // running sum of exp(x - max); 2. merge the workgroup's pairs in shared memory;
    // 3. one more loop: result = exp(x - max) / sum.
}
