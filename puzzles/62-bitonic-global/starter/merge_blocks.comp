#version 450
// The end of a stage, in shared memory: the half-cleaners d = ELEMS / 2, ..., 2, 1, whose pairs
// lie inside one block of ELEMS. Workgroup w loads its block of result, runs them with a barrier
// after each, and writes it back.

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ELEMS = 2;  // the block: 2 * WG values, WG a power of two

layout(set = 0, binding = 1) buffer Result { float result[]; };

shared float tile[ELEMS];

void main() {
    uint n = uint(result.length());
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint base = gl_WorkGroupID.x * ELEMS;
    float infinity = uintBitsToFloat(0x7f800000u);
    // TODO: load the block's two cells per thread (+infinity past the end), the half-cleaners
    // d = ELEMS / 2 down to 1 with a barrier after each, write the two cells back.
}
