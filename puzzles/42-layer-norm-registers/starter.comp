#version 450
// Subgroup operations (core in Vulkan 1.1): basic for the ids and subgroupElect(), arithmetic
// for subgroupAdd.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint COLS = 1;         // the length of a row of x
layout(constant_id = 4) const uint SHARED_SIZE = 1;  // the workgroup size
layout(constant_id = 5) const uint PER = 1;          // ceil_div(COLS, WG): a thread's columns

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer Gamma { float gamma[]; };  // scale, per column
layout(set = 0, binding = 2) readonly buffer Beta { float beta[]; };    // shift, per column
layout(set = 0, binding = 3) writeonly buffer Result { float result[]; };

const float EPSILON = 1e-5;

shared float cache[SHARED_SIZE];  // one value per subgroup

// The workgroup's sum of `value`: each subgroup adds its lanes', one lane per subgroup stores the
// total, and every thread adds the `count` totals (8 with 32 lanes and 256 threads). The first
// barrier keeps these writes from overtaking the reads of the sum before.
float workgroupSum(float value) {
    float total = subgroupAdd(value);
    barrier();
    if (subgroupElect()) {
        cache[gl_SubgroupID] = total;
    }
    barrier();
    uint count = (gl_WorkGroupSize.x + gl_SubgroupSize - 1) / gl_SubgroupSize;
    float sum = 0.0;
    for (uint k = 0; k < count; ++k) {
        sum += cache[k];
    }
    return sum;
}

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint row = gl_WorkGroupID.x * COLS;  // one workgroup per row: where its row starts in x

    // 1. The only read of x: thread t's columns t, t + wg, ... into registers (0 past the end).
    float v[PER];
    for (uint k = 0; k < PER; ++k) {
        uint c = t + k * wg;
        v[k] = c < COLS ? x[row + c] : 0.0;
    }
    // Your code here: the mean (a workgroupSum of the held values, over COLS), the variance (a
    // workgroupSum of (v[k] - mean)^2 over the real columns, over COLS), then
    // result[row + c] = (v[k] - mean) * inversesqrt(var + EPSILON) * gamma[c] + beta[c].
}
