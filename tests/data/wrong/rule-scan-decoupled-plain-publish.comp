// puzzle: scan-decoupled
// mistake: the tile's aggregate and prefix are published with plain stores (status[tile] = ...)
// instead of atomicExchange: the values come out right here, but a plain store may sit in a
// cache while the other workgroups wait for it, and the statement asks for atomics
// traced
// fails: case 1
// fails: case 5
// finding: rule
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;
layout(constant_id = 4) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { uint result[]; };
layout(set = 0, binding = 2) volatile coherent buffer Status { uint status[]; };
layout(set = 0, binding = 3) coherent buffer Counter { uint counter[]; };

const uint AGGREGATE = 1u << 30;
const uint PREFIX = 2u << 30;
const uint VALUE_MASK = (1u << 30) - 1u;
const uint MAX_SPINS = 256u;

shared uint threadSums[SHARED_SIZE];
shared uint tileShared;
shared uint exclusiveShared;

// The sum of tile j's elements, by one thread: the fallback for a silent predecessor.
uint tileSum(uint j, uint wg, uint n) {
    uint sum = 0u;
    for (uint i = j * wg * ITEMS; i < min((j + 1u) * wg * ITEMS, n); ++i) sum += a[i];
    return sum;
}

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(a.length());
    if (t == 0u) tileShared = atomicAdd(counter[0], 1u);
    barrier();
    uint tile = tileShared;
    uint first = (tile * wg + t) * ITEMS;
    uint own = 0u;
    for (uint k = 0u; k < ITEMS; ++k)
        if (first + k < n) own += a[first + k];
    threadSums[t] = own;
    barrier();
    for (uint offset = 1u; offset < wg; offset *= 2u) {
        uint left = t >= offset ? threadSums[t - offset] : 0u;
        barrier();
        threadSums[t] += left;
        barrier();
    }
    if (t == 0u) {
        uint aggregate = threadSums[wg - 1u];
        status[tile] = (tile == 0u ? PREFIX : AGGREGATE) | aggregate;  // the mistake
        uint before = 0u;
        for (uint j = tile; j > 0u; --j) {
            uint s = status[j - 1u];
            for (uint spins = 0u; (s >> 30) == 0u && spins < MAX_SPINS; ++spins)
                s = status[j - 1u];
            if ((s >> 30) == 0u) {
                before += tileSum(j - 1u, wg, n);
                continue;
            }
            before += s & VALUE_MASK;
            if ((s >> 30) == 2u) break;
        }
        if (tile > 0u) status[tile] = PREFIX | (before + aggregate);  // the mistake, again
        exclusiveShared = before;
    }
    barrier();
    uint running = exclusiveShared + threadSums[t] - own;
    for (uint k = 0u; k < ITEMS; ++k)
        if (first + k < n) {
            running += a[first + k];
            result[first + k] = running;
        }
}
