#version 450
// One step of the network whose pairs lie in different blocks (d >= ELEMS), in global memory:
// one compare-exchange per thread, on the cells i and i ^ mask of result. The pass says which
// step: mask = size - 1 for the flip of stage `size` (cell i against its mirror), mask = d for a
// half-cleaner (cell i against i + d).

layout(local_size_x_id = 0) in;

layout(set = 0, binding = 1) buffer Result { float result[]; };

layout(push_constant) uniform Step { uint mask; };

void main() {
    uint n = uint(result.length());
    uint p = gl_GlobalInvocationID.x;  // this thread's pair
    // Every pair has one cell with bit h of its index clear (the lower cell, i) and one with it
    // set (i ^ mask), h being the top bit of the mask. Pair p's lower cell is p with a 0 put in
    // at bit h: the bits of p above h move up by one.
    uint h = uint(findMSB(mask));
    uint low = (1u << h) - 1u;
    uint i = ((p >> h) << (h + 1u)) | (p & low);
    uint j = i ^ mask;
    // The network is as long as the power of two at or above n; the cells from n on hold
    // +infinity there. Every compare-exchange sends the larger value up, so a pair whose upper
    // cell is past the end leaves its lower cell as it is: skip it. No memory for the padding.
    if (j < n) {
        float a = result[i];
        float b = result[j];
        result[i] = min(a, b);
        result[j] = max(a, b);
    }
}
