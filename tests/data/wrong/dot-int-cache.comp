// puzzle: dot
// mistake: the products are summed in an int shared array: each loses its fraction
// fails: case 5
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) buffer Result { float result[]; };

shared int cache[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint n = uint(a.length());
    cache[t] = t < n ? int(a[t] * b[t]) : 0;
    barrier();
    for (uint remaining = gl_WorkGroupSize.x; remaining > 1;) {
        uint stride = (remaining + 1) / 2;
        if (t + stride < remaining) cache[t] += cache[t + stride];
        barrier();
        remaining = stride;
    }
    if (t == 0) result[0] = float(cache[0]);
}
