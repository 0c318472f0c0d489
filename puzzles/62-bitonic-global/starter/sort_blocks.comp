#version 450
// Pass 1, once: workgroup w sorts its block of ELEMS = 2 * WG values, x[w * ELEMS] to
// x[w * ELEMS + ELEMS - 1], in shared memory and writes it to result: the kernel of Bitonic sort
// in a workgroup, as it is.

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
    // TODO: your Bitonic sort in a workgroup: load two cells per thread (+infinity past the end),
    // every stage size = 2, 4, ..., ELEMS (the flip, then the half-cleaners, a barrier after
    // each step), write the two cells back.
}
