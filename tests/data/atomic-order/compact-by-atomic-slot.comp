#version 450
// compact with each kept element's slot taken from a shared atomicAdd, not a scan: the slots come
// in the order the device performs the atomics, which no device promises. Where lanes run in
// order (lavapipe) the elements land in their original order and every case passes; in another
// order they come out shuffled.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };
layout(set = 0, binding = 2) buffer Count { uint count[]; };

shared uint scan[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(a.length());
    if (t == 0) {
        scan[0] = 0;
    }
    barrier();
    uint x = t < n ? a[t] : 0u;
    if ((x & 1u) == 1u) {
        uint slot = atomicAdd(scan[0], 1u);
        result[slot] = x;
    }
    barrier();
    if (t == wg - 1) {
        count[0] = scan[0];
    }
}
