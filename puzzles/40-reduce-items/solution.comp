#version 450
// Subgroup operations (core in Vulkan 1.1): basic for the gl_Subgroup* ids and subgroupElect(),
// arithmetic for subgroupAdd.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size (never fewer cells than subgroups).
layout(constant_id = 3) const uint SHARED_SIZE = 1;
layout(constant_id = 5) const uint ITEMS = 1;  // elements per thread

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };  // one cell per workgroup

shared float partial[SHARED_SIZE];  // one cell per subgroup

void main() {
    uint wg = gl_WorkGroupSize.x;
    uint lanes = gl_SubgroupSize;  // never write 32: 8 on lavapipe, 64 on some AMD
    uint e = gl_SubgroupID * lanes + gl_SubgroupInvocationID;  // the thread, numbered by lane
    uint n = uint(a.length());

    // 1. The workgroup's WG x ITEMS elements are ITEMS runs of WG; thread e takes element e of
    //    every run, so each load of a subgroup reads neighbouring floats. No load depends on
    //    another, or on the sum: ITEMS is a constant, the compiler unrolls the loop, and the
    //    loads are in flight together while the adds wait for them.
    uint first = gl_WorkGroupID.x * wg * ITEMS + e;
    float sum = 0.0;
    for (uint k = 0; k < ITEMS; ++k) {
        uint i = first + k * wg;
        sum += i < n ? a[i] : 0.0;
    }

    // 2. From here on, Reduce with subgroups: each subgroup adds its lanes' sums, and while
    //    more than one total is left, one lane per subgroup stores its total and the first
    //    `count` threads add them up again. The work after the loads is now paid once per
    //    WG x ITEMS elements.
    float total = subgroupAdd(sum);
    uint count = (wg + lanes - 1) / lanes;
    while (count > 1) {
        if (gl_SubgroupID < count && subgroupElect()) {
            partial[gl_SubgroupID] = total;
        }
        barrier();  // the totals are stored before anybody reads them
        float x = 0.0;
        if (e < count) {
            x = partial[e];
        }
        barrier();  // read before the next level overwrites the cells
        total = subgroupAdd(x);
        count = (count + lanes - 1) / lanes;
    }

    // 3. The first thread's subgroup now holds the workgroup's total.
    if (e == 0) {
        result[gl_WorkGroupID.x] = total;
    }
}
