#version 450
// Single-pass inclusive scan with decoupled look-back (Merrill & Garland, 2016), with the
// "decoupled fallback" that keeps it correct without forward-progress guarantees.
//
// Built for speed as well as for reading:
// - every global access is coalesced: in round k, thread t loads and stores element
//   base + k*WG + t, so a subgroup touches one contiguous run;
// - shared memory turns that "striped" order into a "blocked" one (thread t then works on ITEMS
//   consecutive elements), so each thread scans its run with plain adds and the workgroup needs
//   one subgroup scan per thread, not one per round;
// - the look-back is done by a whole subgroup at once (one poll looks at up to gl_SubgroupSize
//   predecessors).
//
// Subgroup operations need every lane of the subgroup there. GPUs that schedule lanes
// independently (NVIDIA since Volta) do not promise that lanes which took different sides of an
// `if` meet again before the next subgroup operation. So the code before each one is branch-free
// (selects and clamped indices instead of `if`s) and, where a divergent `if` cannot be avoided,
// subgroupBarrier() makes the lanes meet first. An earlier version of this kernel that skipped
// this gave wrong sums on an H100 for some tile shapes, and right ones on lavapipe.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;        // elements per thread
layout(constant_id = 4) const uint SHARED_SIZE = 1;  // WG * ITEMS + WG * ITEMS / 32: a tile, padded

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { uint result[]; };
// One status word per tile: flag in bits 30-31, value in bits 0-29. Starts all zero.
// Other workgroups change it while we run: `coherent` makes every read see the device's latest
// value, `volatile` makes every poll really read memory. Polling with plain loads, not
// atomicOr(status[j], 0u): an atomic is a read-modify-write, and hundreds of subgroups
// read-modify-writing the same few words queue up behind each other.
layout(set = 0, binding = 2) volatile coherent buffer Status { uint status[]; };
// The next tile to hand out. Starts at zero.
layout(set = 0, binding = 3) coherent buffer Counter { uint counter[]; };

const uint FLAG_NOT_READY = 0u;        // nothing published yet
const uint FLAG_AGGREGATE = 1u;        // value = the sum of this tile alone
const uint FLAG_PREFIX = 2u;           // value = the sum of everything up to the end of this tile
const uint VALUE_MASK = (1u << 30) - 1u;
const uint MAX_SPINS = 256u;           // polls of a silent predecessor before doing its work
const uint NONE = 0xffffffffu;
const uint MAX_SUBGROUPS = 256u;       // 1024 threads in subgroups of 4

// The tile, with one spare word after every 32 (see padded()).
shared uint tileData[SHARED_SIZE];
// Each subgroup's total.
shared uint subgroupSums[MAX_SUBGROUPS];
shared uint tileShared;                // the tile this workgroup took
shared uint exclusiveShared;           // the sum of everything before the tile

// Where tile element i lives in tileData. Shared memory has 32 banks of one word; in the blocked
// read below, thread t reads element t*ITEMS + j, and without the spare word every 32 the 32 lanes
// of a subgroup would hit the same few banks (for ITEMS = 8, four banks, so 8 reads in a row
// instead of one at a time).
uint padded(uint i) { return i + i / 32u; }

// The inclusive scan of x across the subgroup, in log2(gl_SubgroupSize) shuffle steps (Kogge-Stone).
// subgroupInclusiveAdd computes the same, but was 1.5x slower than this on an H100.
uint subgroupScan(uint x, uint lane) {
    subgroupBarrier();  // every lane here before the first shuffle
    for (uint d = 1u; d < gl_SubgroupSize; d *= 2u) {
        uint y = subgroupShuffleUp(x, d);
        x += lane >= d ? y : 0u;  // a select, not an `if`: no lane leaves the others
    }
    return x;
}

// The sum of tile j, read from `a` by one subgroup: the fallback for a silent predecessor.
uint reduceTile(uint j, uint tileSize, uint n, uint lane, uint width) {
    uint sum = 0u;
    for (uint c = 0u; c < tileSize; c += width) {
        uint e = j * tileSize + c + lane;
        uint x = a[min(e, n - 1u)];  // past the end: read a cell that exists, then drop it
        sum += e < n && c + lane < tileSize ? x : 0u;
    }
    return subgroupAdd(sum);
}

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint tileSize = wg * ITEMS;
    uint n = uint(a.length());
    // Subgroups are runs of gl_SubgroupSize consecutive threads; the last may be partial (a
    // workgroup of 4 on an 8-lane device). `width` is how many lanes subgroup 0 really has.
    uint lane = gl_SubgroupInvocationID;
    uint sg = t / gl_SubgroupSize;
    uint subgroups = (wg + gl_SubgroupSize - 1u) / gl_SubgroupSize;
    uint lastLane = min(gl_SubgroupSize, wg - sg * gl_SubgroupSize) - 1u;
    uint width = min(gl_SubgroupSize, wg);

    // 1. Take a tile number from the counter: tiles are handed out in the order workgroups
    //    really start, so my predecessors have all started before me.
    if (t == 0u) tileShared = atomicAdd(counter[0], 1u);
    barrier();
    uint tile = tileShared;
    uint base = tile * tileSize;

    // 2. Load the tile, coalesced (round k covers elements base + k*WG .. + WG-1), into shared
    //    memory; then each thread adds up the ITEMS consecutive elements t*ITEMS .. of the tile.
    //    Every tile but perhaps the last is full: its loads need no clamping, so they all share one
    //    address plus constant offsets (fewer registers: 46 instead of 48 on an H100, and 5% faster).
    bool full = base + tileSize <= n;
    if (full) {
        for (uint k = 0u; k < ITEMS; ++k) tileData[padded(k * wg + t)] = a[base + k * wg + t];
    } else {
        for (uint k = 0u; k < ITEMS; ++k) {
            uint i = k * wg + t;
            uint x = a[min(base + i, n - 1u)];  // past the end: read a cell that exists, then drop it
            tileData[padded(i)] = base + i < n ? x : 0u;
        }
    }
    barrier();
    uint run = 0u;
    for (uint j = 0u; j < ITEMS; ++j) run += tileData[padded(t * ITEMS + j)]; // my run's total

    // 3. Scan the threads' totals: inside each subgroup with shuffles, then across the subgroups.
    //    The code since the barrier is branch-free, so every lane is here.
    uint inclusive = subgroupScan(run, lane);
    if (lane == lastLane) subgroupSums[sg] = inclusive;
    barrier();
    // Every thread adds up the subgroup totals itself (a handful of reads of the same words by
    // every lane): the ones before its subgroup, and all of them, the tile's aggregate. No second
    // barrier and no scan by one subgroup (2% faster on an H100 than that).
    uint aggregate = 0u, beforeSubgroup = 0u;
    for (uint k = 0u; k < subgroups; ++k) {
        uint x = subgroupSums[k];
        beforeSubgroup += k < sg ? x : 0u;
        aggregate += x;
    }

    // 4. Publish my aggregate at once ("decoupled": successors can step over my tile without
    //    waiting for my prefix). Tile 0's aggregate is its inclusive prefix already.
    if (t == 0u) atomicExchange(status[tile], ((tile == 0u ? FLAG_PREFIX : FLAG_AGGREGATE) << 30) | (aggregate & VALUE_MASK));

    // Replace my run in tileData by its scan within the tile (subgroups 1.. do this while
    // subgroup 0 looks back). Each thread touches only the cells it read; nothing of the tile
    // stays in registers while the look-back waits, so more workgroups fit on the GPU at once
    // (10% faster on an H100 than keeping the run in registers).
    uint inTile = beforeSubgroup + inclusive - run; // the sum of the tile before my run
    for (uint j = 0u; j < ITEMS; ++j) {
        uint idx = padded(t * ITEMS + j);
        inTile += tileData[idx];
        tileData[idx] = inTile;
    }

    // 5. Look back, by subgroup 0: lane i polls tile j - i, so one poll sees `width`
    //    predecessors. The nearest PREFIX ends the walk; AGGREGATEs before it are added; a
    //    NOT_READY before it means waiting (and, after MAX_SPINS polls, doing its work).
    if (sg == 0u && tile > 0u) {
        uint exclusive = 0u;
        int j = int(tile) - 1;
        uint spins = 0u;
        while (j >= 0) {
            int idx = j - int(lane);
            uint word = status[max(idx, 0)];
            word = idx >= 0 ? word : (FLAG_PREFIX << 30); // before tile 0: prefix 0
            subgroupBarrier();  // lanes that polled at different speeds meet before subgroupMin
            uint flag = word >> 30;
            uint firstPrefix = subgroupMin(flag == FLAG_PREFIX ? lane : NONE);
            uint firstSilent = subgroupMin(flag == FLAG_NOT_READY ? lane : NONE);
            if (firstSilent < firstPrefix) {
                if (++spins < MAX_SPINS) continue;
                // The fallback: tile j - firstSilent may not even be running. Add the
                // aggregates before it, its sum read from `a`, and walk on past it.
                exclusive += subgroupAdd(lane < firstSilent ? word & VALUE_MASK : 0u);
                exclusive += reduceTile(uint(j) - firstSilent, tileSize, n, lane, width);
                j -= int(firstSilent) + 1;
                spins = 0u;
                continue;
            }
            exclusive += subgroupAdd(lane <= firstPrefix ? word & VALUE_MASK : 0u);
            if (firstPrefix != NONE) break;
            j -= int(width);
            spins = 0u;
        }
        if (lane == 0u) {
            atomicExchange(status[tile], (FLAG_PREFIX << 30) | ((exclusive + aggregate) & VALUE_MASK));
            exclusiveShared = exclusive;
        }
    }
    if (tile == 0u && t == 0u) exclusiveShared = 0u;
    barrier();

    // 6. Write my tile: what came before it + the scan inside it, in the striped order again so
    //    that the stores are coalesced too.
    uint before = exclusiveShared;
    if (full) {
        for (uint k = 0u; k < ITEMS; ++k) result[base + k * wg + t] = before + tileData[padded(k * wg + t)];
    } else {
        for (uint k = 0u; k < ITEMS; ++k) {  // the last tile: only its cells below n are stored
            uint i = k * wg + t;
            if (base + i < n) result[base + i] = before + tileData[padded(i)];
        }
    }
}
