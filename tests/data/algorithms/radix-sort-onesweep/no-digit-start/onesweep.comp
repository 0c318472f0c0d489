#version 450
// A learner's scatter that forgets where its digit starts in `sorted` (the histogram's scan).
// Pass 2, every lap: the keys move to their places for digit `lapIndex` in ONE pass over
// them (a "one-sweep" radix sort, as CUB's onesweep). Each workgroup takes a tile of WG * ITEMS
// keys and
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
#extension GL_EXT_control_flow_attributes : require  // [[unroll]]: mine[] and rank[] in registers

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
const uint WINDOW = 8u;           // tiles whose words one poll of the look-back reads

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
    uint rank[ITEMS];
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        mine[j] = keys[min(base + first + j * width, n - 1u)];  // past n: read a key, drop it
    }

    // 1. Rank: the keys of each digit before mine in the tile. Inside my subgroup, the ballots
    //    of the digit's bits find my peers (the lanes whose digit is mine); a row of counters
    //    carries each digit's count from one row of keys to the next. Then thread d turns digit
    //    d's counts of the subgroups into what comes before each. With more subgroups than rows
    //    fit in `work` (4 lanes), they take turns, `slots` subgroups at a time.
    uint tileCount = 0u;  // thread d: the tile's keys of digit d
    for (uint batch = 0u; batch < subgroups; batch += slots) {
        for (uint i = t; i < slots * DIGITS; i += wg) {
            work[i] = 0u;
        }
        barrier();
        bool turn = sg >= batch && sg < batch + slots;  // the same for the whole subgroup
        uint row = (sg - batch) * DIGITS;
        if (turn) {
            [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
                bool valid = first + j * width < count;
                uint d = digitOf(mine[j]);
                uvec4 peers = subgroupBallot(valid);
                [[unroll]] for (uint b = 0u; b < BITS; ++b) {
                    bool one = ((d >> b) & 1u) != 0u;
                    uvec4 ones = subgroupBallot(one);
                    peers &= one ? ones : ~ones;
                }
                uint below = subgroupBallotExclusiveBitCount(peers);  // my peers in lanes below mine
                uint before = work[row + d];
                subgroupBarrier();  // every lane has read the counter before it changes
                if (valid && below == 0u) work[row + d] = before + subgroupBallotBitCount(peers);
                subgroupBarrier();
                rank[j] = before + below;
            }
        }
        barrier();
        if (t < DIGITS) {
            for (uint s = 0u; s < min(slots, subgroups - batch); ++s) {
                uint c = work[s * DIGITS + t];
                work[s * DIGITS + t] = tileCount;
                tileCount += c;
            }
        }
        barrier();
        if (turn) {
            [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
                rank[j] += work[row + digitOf(mine[j])];
            }
        }
        barrier();  // every row read before the next batch clears them, or the tile fills `work`
    }

    // 2. Publish the tile's count of each digit at once; tile 0's is its prefix already.
    if (t < DIGITS) {
        uint flag = tile == 0u ? FLAG_PREFIX : FLAG_AGGREGATE;
        atomicExchange(status[(lapIndex * tiles + tile) * DIGITS + t], (flag << 30) | tileCount);
    }

    // 3. Two exclusive scans over the digits at once: of the tile's counts (where each digit
    //    starts in the sorted tile), and of the lap's histogram (where it starts in `sorted`).
    subgroupBarrier();
    uint total = histograms[lapIndex * DIGITS + min(t, DIGITS - 1u)];
    uvec2 v = t < DIGITS ? uvec2(tileCount, total) : uvec2(0u);
    uvec2 x = subgroupExclusiveAdd(v);
    if (lane == width - 1u) {
        subgroupTotals[2u * sg] = x.x + v.x;       // the tile's keys of the digits so far
        subgroupTotals[2u * sg + 1u] = x.y + v.y;  // all keys of those digits
    }
    barrier();
    for (uint s = 0u; s < sg; ++s) {
        x += uvec2(subgroupTotals[2u * s], subgroupTotals[2u * s + 1u]);
    }
    if (t < DIGITS) digitBase[t] = x.x;
    barrier();
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {  // my keys to their places in the tile
        if (first + j * width < count) {
            work[digitBase[digitOf(mine[j])] + rank[j]] = mine[j];
        }
    }
    barrier();

    // 4. Look back, thread d for digit d: the tiles before mine, nearest first. AGGREGATE: add
    //    and go on; PREFIX: add and stop; not ready: poll again, and after MAX_SPINS polls count
    //    that tile's keys of the digit from `keys` (it may not even be running) and go on.
    //    Hundreds of tiles run at once, so the walk can pass many AGGREGATEs: read WINDOW at once.
    if (t < DIGITS) {
        uint exclusive = 0u;
        if (tile > 0u) {
            int j = int(tile) - 1;  // the nearest tile not added yet
            uint spins = 0u;
            while (j >= 0) {
                // WINDOW tiles' words at once: loads that do not wait for each other, so a walk
                // over many AGGREGATEs costs a few trips to memory, not one per tile.
                uint words[WINDOW];
                [[unroll]] for (uint w = 0u; w < WINDOW; ++w) {
                    words[w] = status[(lapIndex * tiles + uint(max(j - int(w), 0))) * DIGITS + t];
                }
                bool found = false, silent = false;
                for (uint w = 0u; w < WINDOW && j >= 0 && !found && !silent; ++w) {
                    uint flag = words[w] >> 30;  // the word of tile j
                    silent = flag == FLAG_NOT_READY;
                    if (!silent) {
                        exclusive += words[w] & VALUE_MASK;
                        found = flag == FLAG_PREFIX;
                        --j;
                        spins = 0u;
                    }
                }
                if (found) break;
                if (silent && ++spins >= MAX_SPINS) {
                    exclusive += countDigit(uint(j), t, n);
                    --j;
                    spins = 0u;
                }
            }
            atomicExchange(status[(lapIndex * tiles + tile) * DIGITS + t],
                           (FLAG_PREFIX << 30) | (exclusive + tileCount));
        }
        digitBase[t] = exclusive - x.x;  // (wrong: the keys of smaller digits are left out)
    }
    barrier();

    // 5. Write the sorted tile out in order: consecutive threads, consecutive places of a digit.
    for (uint i = t; i < count; i += wg) {
        uint key = work[i];
        sorted[digitBase[digitOf(key)] + i] = key;
    }
}
