#version 450
// One step of the network whose pairs lie in different blocks (d >= ELEMS), in global memory:
// one compare-exchange per thread, on the cells i and i ^ mask of result. The pass says which
// step: mask = size - 1 for the flip of stage `size`, mask = d for a half-cleaner.

layout(local_size_x_id = 0) in;

layout(set = 0, binding = 1) buffer Result { float result[]; };

layout(push_constant) uniform Step { uint mask; };

void main() {
    uint n = uint(result.length());
    uint p = gl_GlobalInvocationID.x;  // this thread's pair
    uint h = uint(findMSB(mask));      // the top bit of the mask: clear in i, set in i ^ mask
    // TODO: i = pair p's lower cell (p with a 0 bit put in at bit h), j = i ^ mask; the
    // compare-exchange of result[i] and result[j], unless j is past the end of result.
}
