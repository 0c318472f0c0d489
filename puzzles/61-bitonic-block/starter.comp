#version 450
// Bitonic sort in a workgroup: workgroup w sorts its block of ELEMS = 2 * WG consecutive values,
// x[w * ELEMS] to x[w * ELEMS + ELEMS - 1], in shared memory, and writes it to result.

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ELEMS = 2;  // the block: 2 * WG values, WG a power of two

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

shared float tile[ELEMS];

void main() {
    uint n = uint(x.length());
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint base = gl_WorkGroupID.x * ELEMS;  // where this workgroup's block starts
    float infinity = uintBitsToFloat(0x7f800000u);

    // Your code here:
    // 1. load cells t and t + wg of the block into tile (+infinity past the end of x); barrier();
    // 2. the network: for size = 2, 4, ..., ELEMS, the flip, then the half-cleaners
    //    d = size / 4, ..., 1, with a barrier() after every step;
    // 3. write cells t and t + wg back to result, only those inside x.
}
