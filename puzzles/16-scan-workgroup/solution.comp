#version 450
// Workgroups of WG threads; SHARED_SIZE = 2 * WG (a power of two): each thread owns two cells.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 2;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

// The whole input (padded with zeros up to SHARED_SIZE) lives here while it is scanned.
shared uint temp[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;  // = SHARED_SIZE / 2
    uint n = uint(a.length());

    // 1. Load. Thread t brings cells t and t + WG (two coalesced sweeps over a). Cells past the
    //    end of a get 0: a zero changes no sum, so the padded array scans to the same prefix
    //    sums and the algorithm below only ever deals with a power of two.
    temp[t] = t < n ? a[t] : 0u;
    temp[t + wg] = t + wg < n ? a[t + wg] : 0u;

    // 2. Up-sweep (reduce). Picture a binary tree over the cells. At the level with `stride`,
    //    `pairs` threads each add the left child's total (cell ai) into the right child's
    //    total (cell bi), in place:
    //        stride 1: cells 1, 3, 5, 7, ...  += cells 0, 2, 4, 6, ...
    //        stride 2: cells 3, 7, 11, ...    += cells 1, 5, 9, ...
    //        ...
    //    Afterwards the last cell holds the sum of everything, and every cell whose index is
    //    2^k - 1 (mod 2^(k+1)) holds the sum of its subtree. SHARED_SIZE - 1 additions in total:
    //    the same work as a sequential loop, which is what "work-efficient" means.
    //    Each level reads what the previous level wrote, hence the barrier at the top of each
    //    iteration. It sits outside the `if`: every thread must reach every barrier.
    uint stride = 1;
    for (uint pairs = SHARED_SIZE / 2; pairs > 0; pairs /= 2) {
        barrier();
        if (t < pairs) {
            uint ai = stride * (2 * t + 1) - 1;
            uint bi = stride * (2 * t + 2) - 1;
            temp[bi] += temp[ai];
        }
        stride *= 2;
    }

    // 3. Clear the root. An exclusive scan starts from 0; the down-sweep pushes that 0 (and
    //    the subtree sums) back down the tree. Thread 0 itself wrote the root in the last
    //    up-sweep level, so no barrier is needed between that write and this one.
    if (t == 0) {
        temp[SHARED_SIZE - 1] = 0u;
    }

    // 4. Down-sweep. Walk the same tree from the root down. Each node holds "the sum of
    //    everything to the left of my subtree". It hands that value to its left child, and
    //    gives its right child that value plus the left child's subtree sum (which the left
    //    child cell still holds from the up-sweep):
    //        left, right = right, right + left
    //    At the bottom, every cell holds the sum of all cells before it: the exclusive scan.
    for (uint pairs = 1; pairs < SHARED_SIZE; pairs *= 2) {
        stride /= 2;
        barrier();
        if (t < pairs) {
            uint ai = stride * (2 * t + 1) - 1;
            uint bi = stride * (2 * t + 2) - 1;
            uint left = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += left;
        }
    }
    barrier(); // the last level's writes must be visible before other threads read the cells

    // 5. Store the two cells this thread owns (only those inside a).
    if (t < n) {
        result[t] = temp[t];
    }
    if (t + wg < n) {
        result[t + wg] = temp[t + wg];
    }

    // Going further: on a real GPU, shared memory is split into 32 banks (consecutive 4-byte
    // words in consecutive banks). At stride 32 and above, the threads of a level all hit the
    // same bank and are served one after the other. Padding every index with `i + i / 32`
    // (and declaring temp[SHARED_SIZE + SHARED_SIZE / 32]) spreads them over the banks; the
    // algorithm is unchanged.
}
