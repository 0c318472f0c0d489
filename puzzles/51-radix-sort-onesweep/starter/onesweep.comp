#version 450
// Pass 2, every lap: the keys move to their places for digit `lapIndex` in ONE pass over
// them. Each workgroup takes a tile of WG * ITEMS keys and (your task)
//   1. ranks its keys by digit, stably, with ballots inside each subgroup and a row of counters
//      per subgroup in shared memory;
//   2. publishes its count of each digit at once (decoupled look-back, as in scan-decoupled, but
//      one status word per digit of each tile);
//   3. sorts the tile by digit in shared memory;
//   4. looks back, one thread per digit: how many keys of the digit the tiles before it hold;
//   5. writes the sorted tile out: runs of one digit go to consecutive places of `sorted`.
// A key of digit d of tile T goes to
//     (keys of smaller digits: the histogram of this lap, scanned)
//   + (keys of digit d in tiles before T: the look-back)
//   + (keys of digit d before it in T: the rank).
//
// Subgroup operations need every lane of the subgroup there: the code before each one is
// branch-free, or a subgroupBarrier() makes the lanes meet first (see scan-decoupled).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;  // keys per thread in a tile
layout(constant_id = 4) const uint BITS = 4;   // bits of a digit: 1, 2, 4 or 8
const uint DIGITS = 1u << BITS;                // no more than WG: thread d looks after digit d
const uint TILE = gl_WorkGroupSize.x * ITEMS;

layout(set = 0, binding = 0) readonly buffer Keys { uint keys[]; };
layout(set = 0, binding = 1) writeonly buffer Sorted { uint sorted[]; };
layout(set = 0, binding = 2) readonly buffer Histograms { uint histograms[]; };
// One status word per lap, tile and digit: flag in bits 30-31, value in bits 0-29.
layout(set = 0, binding = 3) volatile coherent buffer Status { uint status[]; };
// The next tile to hand out, one counter per lap.
layout(set = 0, binding = 4) coherent buffer Counter { uint counter[]; };

layout(push_constant) uniform Lap { uint lapIndex; };

const uint FLAG_NOT_READY = 0u;   // nothing published yet
const uint FLAG_AGGREGATE = 1u;   // value = the tile's keys of this digit
const uint FLAG_PREFIX = 2u;      // value = the keys of this digit up to the end of this tile
const uint VALUE_MASK = (1u << 30) - 1u;
const uint MAX_SPINS = 256u;      // polls of a silent predecessor before counting its keys

// First the counters of the ranking, a row of DIGITS per subgroup; then the tile sorted by digit.
shared uint work[TILE];
// First where each digit starts in the sorted tile; then where it goes in `sorted`, less that.
shared uint digitBase[DIGITS];
shared uint subgroupTotals[2u * ((gl_WorkGroupSize.x + 3u) / 4u)];  // 2 a subgroup (4+ lanes)
shared uint tileShared;

uint digitOf(uint key) {
    return (key >> (lapIndex * BITS)) & (DIGITS - 1u);
}

// The fallback of the look-back: tile j's keys of digit d, counted from `keys`.
uint countDigit(uint j, uint d, uint n) {
    uint c = 0u;
    for (uint i = j * TILE; i < min(n, (j + 1u) * TILE); ++i) {
        c += digitOf(keys[i]) == d ? 1u : 0u;
    }
    return c;
}

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(keys.length());
    uint tiles = (n + TILE - 1u) / TILE;
    uint size = gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    uint sg = t / size;
    uint subgroups = (wg + size - 1u) / size;
    uint width = min(size, wg - sg * size);  // my subgroup's lanes (the last one may be partial)
    uint slots = TILE / DIGITS;              // rows of counters that fit in `work`

    // Tiles are handed out in the order workgroups really start.
    if (t == 0u) tileShared = atomicAdd(counter[lapIndex], 1u);
    barrier();
    uint tile = tileShared;
    uint base = tile * TILE;
    uint count = min(TILE, n - base);  // the tile's keys (the last tile may be short)

    // Subgroup sg owns keys sg * size * ITEMS .. + width * ITEMS - 1 of the tile, and reads them
    // in ITEMS coalesced rows: lane `lane` takes key first + j * width.
    uint first = sg * size * ITEMS + lane;
    uint mine[ITEMS];
    for (uint j = 0u; j < ITEMS; ++j) {
        mine[j] = keys[min(base + first + j * width, n - 1u)];  // past n: read a key, drop it
    }

    // TODO 1. Rank each key: the keys of its digit before it in the tile (ballots in the
    //         subgroup, a row of counters per subgroup in `work`, then thread d over the rows).
    // TODO 2. Publish the tile's count of each digit (thread d, atomicExchange).
    // TODO 3. Sort the tile by digit in `work` (where each digit starts: a scan over the digits).
    // TODO 4. Look back, thread d for digit d, and publish the PREFIX.
    // TODO 5. Write the sorted tile to its places in `sorted`.

    // For now every key stays where it is: right only for keys that are sorted already.
    for (uint j = 0u; j < ITEMS; ++j) {
        uint i = first + j * width;
        if (i < count) sorted[base + i] = mine[j];
    }
}
