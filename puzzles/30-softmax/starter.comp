#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint COLS = 1;         // the length of a row of x
layout(constant_id = 4) const uint SHARED_SIZE = 1;  // the workgroup size

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

shared float cache[SHARED_SIZE];

// Given: cache[0] becomes the max (takeMax) or the sum of cache[0 .. WG-1], the tree of Reduce
// without divergence. Every thread of the workgroup must call it, after a barrier().
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
    // Your code here: thread t handles columns t, t + wg, ... of the row.
    // 1. the row's max, 2. the sum of exp(x - max), 3. result = exp(x - max) / sum.
}
