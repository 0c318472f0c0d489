#version 450
// Single-pass inclusive scan with decoupled look-back (Merrill & Garland, 2016), with the
// "decoupled fallback" that makes it safe without forward-progress guarantees.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;        // elements per thread
layout(constant_id = 4) const uint SHARED_SIZE = 1;  // = the workgroup size (WG)

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };
// One status word per tile: flag in bits 30-31, value in bits 0-29. Starts all zero.
// Other workgroups change it while we run; `coherent` says so (atomics alone would do).
layout(set = 0, binding = 2) coherent buffer Status { uint status[]; };
// The next tile to hand out. Starts at zero.
layout(set = 0, binding = 3) coherent buffer Counter { uint counter[]; };

const uint FLAG_NOT_READY = 0u;        // nothing published yet
const uint FLAG_AGGREGATE = 1u << 30;  // value = the sum of this tile alone
const uint FLAG_PREFIX = 2u << 30;     // value = the sum of everything up to the end of this tile
const uint FLAG_MASK = 3u << 30;
const uint VALUE_MASK = (1u << 30) - 1u;
const uint MAX_SPINS = 256u;           // polls of a silent predecessor before doing its work

shared uint threadSums[SHARED_SIZE];   // per-thread sums, scanned across the workgroup
shared uint tileShared;                // the tile this workgroup took
shared uint lookShared;                // the status word thread 0 found in the look-back
shared uint fallbackTotal;             // the sum of the tiles we reduced ourselves

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint tileSize = wg * ITEMS;
    uint n = uint(a.length());

    // 1. Take a tile number. Not gl_WorkGroupID.x: the order in which workgroups start is up
    //    to the GPU. Workgroup 5 may be running while workgroup 4 waits for a free slot, and if
    //    the running ones all wait for the ones not started, nothing moves. With a counter,
    //    tiles are handed out in the order workgroups actually start, so the predecessors of
    //    my tile have all started before me.
    if (t == 0) {
        tileShared = atomicAdd(counter[0], 1u);
        fallbackTotal = 0u;
    }
    barrier();
    uint tile = tileShared;

    // 2. Scan my tile locally. Thread t owns ITEMS consecutive elements: it adds them up on its
    //    own, the workgroup scans the per-thread sums (Hillis-Steele in shared memory: log2(WG)
    //    steps, each adding the cell `offset` to the left), and the last cell is the tile's
    //    aggregate.
    uint first = tile * tileSize + t * ITEMS;
    uint v[ITEMS];
    uint mySum = 0u;
    for (uint k = 0u; k < ITEMS; ++k) {
        v[k] = first + k < n ? a[first + k] : 0u;
        mySum += v[k];
    }
    threadSums[t] = mySum;
    barrier();
    for (uint offset = 1u; offset < wg; offset *= 2u) {
        uint left = t >= offset ? threadSums[t - offset] : 0u;
        barrier(); // everyone has read before anyone overwrites
        threadSums[t] += left;
        barrier(); // everyone has written before the next step reads
    }
    uint aggregate = threadSums[wg - 1u];

    // 3. Publish my aggregate AT ONCE, before looking back. That is the "decoupled" part: my
    //    successors can step over my tile with it, without waiting for my inclusive prefix
    //    (which depends on my own predecessors). Tile 0 has no predecessors: its aggregate IS
    //    its inclusive prefix.
    //    Status words are only ever touched with atomics. Flag and value travel together in
    //    one word, so nobody can see a flag without its value, and nothing else is shared
    //    between workgroups: no memory barrier is needed to order one against the other.
    if (t == 0) {
        atomicExchange(status[tile], (tile == 0u ? FLAG_PREFIX : FLAG_AGGREGATE) | aggregate);
    }

    // 4. Decoupled look-back: walk back over the predecessors, adding what they published,
    //    until one has its inclusive prefix (everything before it is then included).
    //    Thread 0 polls; the whole workgroup walks along in step (the word it found goes through
    //    shared memory), so that all threads can help with the fallback. `exclusive` is the
    //    same in every thread.
    uint exclusive = 0u;
    for (int j = int(tile) - 1; j >= 0; --j) {
        if (t == 0) {
            // An atomic read (OR with 0) of tile j's status, until it says something or we
            // give up.
            uint s = 0u;
            for (uint spin = 0u; spin < MAX_SPINS; ++spin) {
                s = atomicOr(status[j], 0u);
                if ((s & FLAG_MASK) != FLAG_NOT_READY) {
                    break;
                }
            }
            lookShared = s;
        }
        barrier(); // thread 0's word is in place
        uint s = lookShared;
        barrier(); // all have read it before thread 0 overwrites it in the next step

        if ((s & FLAG_MASK) == FLAG_NOT_READY) {
            // The fallback. Tile j has published nothing for MAX_SPINS polls. Vulkan does not
            // promise that another workgroup makes progress while this one waits (on some GPUs
            // it may not run until this one ends), so waiting longer might mean waiting
            // forever. Its aggregate is just the sum of its input, so compute it: every thread
            // adds its ITEMS elements of tile j into a shared total, then walk on.
            uint part = 0u;
            uint from = uint(j) * tileSize + t * ITEMS;
            for (uint k = 0u; k < ITEMS; ++k) {
                if (from + k < n) {
                    part += a[from + k];
                }
            }
            atomicAdd(fallbackTotal, part); // read after the barrier below the loop
        } else {
            exclusive += s & VALUE_MASK;
            if ((s & FLAG_MASK) == FLAG_PREFIX) {
                break; // every tile before j is inside this prefix: done
            }
        }
    }
    barrier(); // all fallback sums are in
    exclusive += fallbackTotal;

    // 5. My inclusive prefix is known now: publish it, so that my successors can stop their
    //    look-back at my tile.
    if (t == 0 && tile > 0u) {
        atomicExchange(status[tile], FLAG_PREFIX | (exclusive + aggregate));
    }

    // 6. Write my elements: the tiles before mine + the threads before me in my tile + my own
    //    running sum.
    uint running = exclusive + threadSums[t] - mySum;
    for (uint k = 0u; k < ITEMS; ++k) {
        running += v[k];
        if (first + k < n) {
            result[first + k] = running;
        }
    }
}
