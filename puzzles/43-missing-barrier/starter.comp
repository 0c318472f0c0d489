#version 450
// The kernel as it was handed to you: it compiles, and it is wrong. See the statement.
// THE BROKEN KERNEL. It compiles and, on some machines, gives the right sums. Find out why it
// cannot be trusted, and fix it.
layout(local_size_x_id = 0) in;
// Length of the shared array: the workgroup size + 2 (the block and the two elements before it).
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

// tile[0], tile[1]: the two elements before this workgroup's block (0 before the array starts);
// tile[t + 2]: the block's element t.
shared float tile[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    uint n = uint(a.length());

    // Every thread parks its element of a (0 past the end) in the tile.
    tile[t + 2u] = i < n ? a[i] : 0.0;
    // Threads 0 and 1 also fetch the two elements before the block.
    if (t < 2u) {
        tile[t] = i >= 2u ? a[i - 2u] : 0.0;
    }

    // The moving sum of three: this element and the two before it, all from the tile.
    if (i < n) {
        result[i] = tile[t] + tile[t + 1u] + tile[t + 2u];
    }
}
