#version 450
// Subgroup operations (core in Vulkan 1.1): basic for the gl_Subgroup* ids and subgroupElect(),
// arithmetic for subgroupAdd.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size (never fewer cells than subgroups).
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };  // one cell per workgroup

shared float partial[SHARED_SIZE];  // one cell per subgroup

void main() {
    uint wg = gl_WorkGroupSize.x;
    uint lanes = gl_SubgroupSize;  // 8 on lavapipe, 32 on NVIDIA, 64 on some AMD: never write 32
    // Number the threads by lane (subgroups are filled one after the other): on the devices we
    // know this is gl_LocalInvocationID.x, but Vulkan does not promise how threads map to lanes.
    uint e = gl_SubgroupID * lanes + gl_SubgroupInvocationID;
    uint i = gl_WorkGroupID.x * wg + e;  // element of a

    // 1. One global read per thread; past the end of a, 0.
    float v = 0.0;
    if (i < uint(a.length())) {
        v = a[i];
    }

    // 2. Each subgroup adds its lanes' values in hardware: no shared memory, no barrier, no lane
    //    left idle. Every lane gets the subgroup's total.
    float total = subgroupAdd(v);

    // 3. `count` totals are left, one per subgroup (count the subgroups ourselves: lavapipe's
    //    gl_NumSubgroups rounds down when the last one is partly filled). While there is more
    //    than one, each subgroup's elected lane stores its total, the first `count` threads read
    //    one each back and add them with subgroupAdd again: count shrinks by a factor of `lanes`
    //    per level (256 threads in subgroups of 8: 32 totals, then 4, then 1).
    //    The loop condition is the same for every thread, so the barriers inside are reached by
    //    the whole workgroup.
    //    Divergent requests under the model (32 lanes): one store per modelled subgroup at the
    //    first level (its elected lanes 0, 8, 16, 24 on lavapipe), then a handful for the few
    //    totals of the later levels: about WG / 32 + 4, against 17 for the shared tree.
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

    // 4. The first thread's subgroup now holds the workgroup's total.
    if (e == 0) {
        result[gl_WorkGroupID.x] = total;
    }
}
