#version 450
// Subgroup operations (core in Vulkan 1.1): basic for the ids and subgroupElect(), arithmetic
// for subgroupMax and subgroupAdd.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint COLS = 1;         // the length of a row of x
layout(constant_id = 4) const uint SHARED_SIZE = 1;  // the workgroup size
layout(constant_id = 5) const uint PER = 1;          // ceil_div(COLS, WG): a thread's columns

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

shared float cache[SHARED_SIZE];  // one value per subgroup

const float LOWEST = -3.4028235e38;  // no max picks it, and exp(LOWEST - max) is 0

// The subgroups' values through `cache`: every thread gets them all, in `count` reads (8 with 32
// lanes and 256 threads). The first barrier keeps these writes from overtaking the reads of the
// step before (the max's, when the sum comes).
uint publish(float value) {
    barrier();
    if (subgroupElect()) {
        cache[gl_SubgroupID] = value;
    }
    barrier();
    return (gl_WorkGroupSize.x + gl_SubgroupSize - 1) / gl_SubgroupSize;
}

float workgroupMax(float value) {
    uint count = publish(subgroupMax(value));
    float m = LOWEST;
    for (uint k = 0; k < count; ++k) {
        m = max(m, cache[k]);
    }
    return m;
}

float workgroupSum(float value) {
    uint count = publish(subgroupAdd(value));
    float s = 0.0;
    for (uint k = 0; k < count; ++k) {
        s += cache[k];
    }
    return s;
}

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint row = gl_WorkGroupID.x * COLS;  // one workgroup per row: where its row starts in x

    // 1. The only read of the row: thread t's columns t, t + wg, ... into registers. Columns past
    //    the end hold LOWEST.
    float v[PER];
    float m = LOWEST;
    for (uint k = 0; k < PER; ++k) {
        uint c = t + k * wg;
        v[k] = c < COLS ? x[row + c] : LOWEST;
        m = max(m, v[k]);
    }
    // Your code here: the row's max (workgroupMax), exp(v[k] - max) and its sum (workgroupSum),
    // then result[row + c] = exp(x - max) / sum for every column c = t + k * wg < COLS, from v:
    // the row is not read again.
}
