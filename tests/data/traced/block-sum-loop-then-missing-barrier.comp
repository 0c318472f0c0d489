// puzzle: block-sum
// expect: race
// mistake: no barrier between the rounds of the tree, after a harmless loop has filled the first
// 1024 trace records of every thread (the race is found only in a larger trace)
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    cache[t] = 0.0;
    for (uint k = 0; k < 600; ++k) cache[t] += 1.0; // only its own cell: no race
    float v = 0.0;
    if (i < uint(a.length())) v = a[i];
    cache[t] = v;
    barrier();
    for (uint remaining = gl_WorkGroupSize.x; remaining > 1;) {
        uint stride = (remaining + 1) / 2;
        if (t + stride < remaining) cache[t] += cache[t + stride];
        remaining = stride; // no barrier(): the next round reads cells still being written
    }
    if (t == 0) result[gl_WorkGroupID.x] = cache[0];
}
