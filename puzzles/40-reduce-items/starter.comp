#version 450
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
    // Number the threads by lane: subgroup gl_SubgroupID, lane gl_SubgroupInvocationID.
    uint e = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    // The workgroup's first element: it owns WG x ITEMS of them.
    uint first = gl_WorkGroupID.x * gl_WorkGroupSize.x * ITEMS;
    // Your code here: each thread adds up its ITEMS elements (0 past the end of a), then the
    // subgroups' totals are combined through partial[] as in Reduce with subgroups, and
    // result[gl_WorkGroupID.x] is written.
}
