#version 450
// Subgroup operations are extensions to GLSL (core in Vulkan 1.1): basic for the gl_Subgroup*
// ids and subgroupElect(), arithmetic for subgroupAdd / subgroupInclusiveAdd / ...
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

// One workgroup of WG threads (at most 256); each thread scans one element.
layout(local_size_x_id = 0) in;
// Cells for the subgroup totals: the workgroup size (never fewer cells than subgroups).
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

shared uint subgroupTotals[SHARED_SIZE];  // one cell per subgroup

void main() {
    uint n = uint(a.length());
    // The element of this thread, numbered by subgroup and lane (on the devices we know, the
    // same as gl_LocalInvocationID.x).
    uint e = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    uint v = e < n ? a[e] : 0u;
    // Your code here: scan v inside the subgroup (subgroupInclusiveAdd), store each subgroup's
    // total in subgroupTotals[gl_SubgroupID], barrier(), scan those totals (there may be more
    // of them than a subgroup has lanes), barrier(), and write result[e] for e < n.
}
