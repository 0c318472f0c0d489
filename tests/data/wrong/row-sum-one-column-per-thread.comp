// puzzle: row-sum
// mistake: each thread reads only column c, so a row longer than the workgroup loses its columns
// from WG on
// fails: case 6
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint COLS = 1;
layout(constant_id = 4) const uint SHARED_SIZE = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

shared float cache[SHARED_SIZE];

void main() {
    uint row = gl_WorkGroupID.y;
    uint c = gl_LocalInvocationID.x;
    cache[c] = c < COLS ? a[row * COLS + c] : 0.0;
    barrier();
    for (uint remaining = gl_WorkGroupSize.x; remaining > 1;) {
        uint stride = (remaining + 1) / 2;
        if (c + stride < remaining) cache[c] += cache[c + stride];
        barrier();
        remaining = stride;
    }
    if (c == 0) result[row] = cache[0];
}
