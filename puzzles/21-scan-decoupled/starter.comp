#version 450
// Single-pass inclusive scan with decoupled look-back and a fallback.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;        // elements per thread
layout(constant_id = 4) const uint SHARED_SIZE = 1;  // WG * ITEMS + WG * ITEMS / 32 (>= WG)

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

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint tileSize = wg * ITEMS;
    uint n = uint(a.length());

    // 1. Take a tile number (not gl_WorkGroupID.x).
    if (t == 0) {
        tileShared = atomicAdd(counter[0], 1u);
    }
    barrier();
    uint tile = tileShared;

    // Your code here:
    // 2. scan the tile (thread t owns elements tile * tileSize + t * ITEMS + 0 .. ITEMS-1),
    // 3. publish the tile's aggregate in status[tile] (PREFIX for tile 0),
    // 4. look back over status[tile-1], status[tile-2], ... (bounded polls, then the fallback),
    // 5. publish the inclusive prefix, 6. write result.
}
