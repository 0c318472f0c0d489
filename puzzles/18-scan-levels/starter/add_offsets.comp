#version 450
// Down-sweep, one dispatch per level from the top down: level = L-2, ..., 1, 0 (the push
// constant). The level above (level + 1) is finished by now: its cell b is the sum of every cell
// of this level up to the end of block b. The up-sweep scanned each block of this level on its
// own, so block b is finished by adding cell b-1 of the level above: all that comes before it.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS = 1;  // elements per thread in a block

layout(set = 0, binding = 1) buffer Result { uint result[]; };
layout(set = 0, binding = 2) buffer Sums { uint sums[]; };

layout(push_constant) uniform Level { uint level; };

// Where level k lies, as in scan_level (`a` is not bound here: `result` has its n cells).
void levelAt(uint k, out uint start, out uint count) {
    // TODO: as in scan_level.
    start = 0u;
    count = 0u;
}

// Cell i of this dispatch's level: `result` at level 0, else the level's cells in `sums`.
uint load(uint start, uint i) {
    // TODO
    return 0u;
}

void store(uint start, uint i, uint v) {
    // TODO
}

void main() {
    uint block = gl_WorkGroupID.x;
    // TODO: add cell block-1 of the level above to every cell of this block of `level` (block 0
    // has nothing before it). In round k, let thread t take cell k * WG + t of the block:
    // coalesced.
}
