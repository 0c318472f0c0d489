// puzzle: divergent-barrier
// expect: divergent barrier
// mistake: a "fix" that gives each branch of the bounds test its own barrier: every thread
// passes one barrier there, but the threads past the end wait at another one than the rest
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

shared float cache[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;

    if (i >= uint(a.length())) {
        cache[t] = 0.0;
        barrier();
    } else {
        cache[t] = a[i];
        barrier();
    }

    for (uint remaining = gl_WorkGroupSize.x; remaining > 1u;) {
        uint stride = (remaining + 1u) / 2u;
        if (t + stride < remaining) {
            cache[t] += cache[t + stride];
        }
        barrier();
        remaining = stride;
    }

    if (t == 0u) {
        result[gl_WorkGroupID.x] = cache[0];
    }
}
