#version 450
layout(local_size_x_id = 0) in;
// Room for a workgroup's slice of a plus its halo: workgroup size + 4.
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };   // 1 to 4 values
layout(set = 0, binding = 2) buffer Result { float result[]; };

const uint MAX_KERNEL = 4;
shared float tile[SHARED_SIZE];   // a's slice for this workgroup, then the halo
shared float kern[MAX_KERNEL];    // a copy of b

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    // Your code here: fill tile and kern (at most 2 global reads per thread), barrier(),
    // then result[i] = sum over j < k of a[i + j] * b[j].
}
