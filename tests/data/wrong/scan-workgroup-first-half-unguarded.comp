// puzzle: scan-workgroup
// mistake: only the second half (t + WG) is guarded: the first half is taken to be always full,
// so with fewer elements than threads the spare threads read and write past the end
// traced
// fails: case 6
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 2;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

shared uint temp[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(a.length());
    temp[t] = a[t];
    temp[t + wg] = t + wg < n ? a[t + wg] : 0u;
    uint stride = 1;
    for (uint pairs = SHARED_SIZE / 2; pairs > 0; pairs /= 2) {
        barrier();
        if (t < pairs) temp[stride * (2 * t + 2) - 1] += temp[stride * (2 * t + 1) - 1];
        stride *= 2;
    }
    if (t == 0) temp[SHARED_SIZE - 1] = 0u;
    for (uint pairs = 1; pairs < SHARED_SIZE; pairs *= 2) {
        stride /= 2;
        barrier();
        if (t < pairs) {
            uint ai = stride * (2 * t + 1) - 1;
            uint bi = stride * (2 * t + 2) - 1;
            uint left = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += left;
        }
    }
    barrier();
    result[t] = temp[t];
    if (t + wg < n) result[t + wg] = temp[t + wg];
}
