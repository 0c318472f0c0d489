#version 450
// Top-k: workgroup r writes the K largest values of row r of x, largest first, to row r of
// result, without sorting the row: a top K per thread in registers, then a tree of merges.

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

    // 1. The thread's own top K, largest first, in registers (K is a constant, so the array can
    //    live there). Each new value goes down the list: every place keeps the larger of what it
    //    holds and what arrives, and passes the smaller on; what falls off the end is lost.
    //    A thread with fewer than K columns (or none) keeps -infinity in its last places.
    float best[K];
    for (uint j = 0u; j < K; ++j) {  // every place starts at -infinity
        best[j] = lowest;
    }
    for (uint c = t; c < COLS; c += wg) {
        float v = x[row * COLS + c];
        for (uint j = 0u; j < K; ++j) {  // v goes down the list
            float larger = max(best[j], v);
            v = min(best[j], v);
            best[j] = larger;
        }
    }
    for (uint j = 0u; j < K; ++j) {
        lists[t * K + j] = best[j];
    }
    barrier();

    // 2. A tree of merges: each round, thread t < remaining - stride merges list t + stride into
    //    its own. Two lists sorted largest first: take the larger head K times (the merge step of
    //    merge sort, stopped after K). After the last round, list 0 is the row's top K.
    uint remaining = wg;
    while (remaining > 1u) {
        uint stride = (remaining + 1u) / 2u;
        if (t < remaining - stride) {
            uint other = (t + stride) * K;
            float merged[K];
            uint mine = 0u;
            uint theirs = 0u;
            for (uint j = 0u; j < K; ++j) {
                float head = lists[other + theirs];
                if (best[mine] >= head) {
                    merged[j] = best[mine];
                    mine += 1u;
                } else {
                    merged[j] = head;
                    theirs += 1u;
                }
            }
            for (uint j = 0u; j < K; ++j) {
                best[j] = merged[j];
                lists[t * K + j] = best[j];
            }
        }
        barrier();  // every list of this round is complete before the next round reads it
        remaining = stride;
    }

    // 3. Write list 0 out, the threads together (K may be larger than the workgroup).
    for (uint c = t; c < K; c += wg) {
        result[row * K + c] = lists[c];
    }
}
