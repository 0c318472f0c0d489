#version 450
// One workgroup of WG threads; thread t handles element t.
layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };  // the kept elements, packed
layout(set = 0, binding = 2) buffer Count { uint count[]; };    // one cell: how many

shared uint scan[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(a.length());
    // Your code here: flag odd elements (0 for t >= n), scan the flags in shared memory,
    // write each kept element to its slot in result, and the number kept to count[0].
}
