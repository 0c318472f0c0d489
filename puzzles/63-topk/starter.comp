#version 450
// Top-k: workgroup r writes the K largest values of row r of x, largest first, to row r of
// result.

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint COLS = 1;         // the length of a row of x
layout(constant_id = 4) const uint K = 1;            // how many values to keep, 1 to COLS
layout(constant_id = 5) const uint SHARED_SIZE = 1;  // WG * K: one list of K per thread

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

shared float lists[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint row = gl_WorkGroupID.x;
    float lowest = uintBitsToFloat(0xff800000u);  // -infinity: loses to every value

    // Your code here:
    // 1. the top K of columns t, t + wg, ... in registers (float best[K], largest first);
    // 2. every thread's list into `lists`, then merge the lists in a tree, a barrier per round;
    // 3. the K values of the last list to result[row * K ...].
}
