// puzzle: conv1d
// mistake: the halo loaders are picked with `t - k <= k - 2`, the same as `t < 2k - 1` for k >= 2;
// for a kernel of one value k - 2 wraps around to 4294967295, so every thread past the first
// loads a halo element and stores it past the end of the shared tile
// traced
// fails: case 5
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) buffer Result { float result[]; };

shared float tile[SHARED_SIZE];
shared float kern[4];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint start = gl_WorkGroupID.x * wg;
    uint n = uint(a.length());
    uint k = uint(b.length());
    tile[t] = i < n ? a[i] : 0.0;
    if (t < k) {
        kern[t] = b[t];
    } else if (t - k <= k - 2) {
        uint j = start + wg + (t - k);
        tile[wg + t - k] = j < n ? a[j] : 0.0;
    }
    barrier();
    if (i < n) {
        float acc = 0.0;
        for (uint j = 0; j < k; ++j) acc += tile[t + j] * kern[j];
        result[i] = acc;
    }
}
