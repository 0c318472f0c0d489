// puzzle: block-sum
// expect: race
// mistake: the tree adds whole (sum, count) pairs, with no barrier between the rounds
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };  // one cell per workgroup

shared vec2 cache[SHARED_SIZE];  // (sum, elements counted)

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;

    bool inside = i < uint(a.length());
    cache[t] = vec2(inside ? a[i] : 0.0, inside ? 1.0 : 0.0);
    barrier();

    for (uint remaining = gl_WorkGroupSize.x; remaining > 1;) {
        uint stride = (remaining + 1) / 2;
        if (t + stride < remaining) {
            vec2 other = cache[t + stride];
            cache[t] = cache[t] + other;
        }
        remaining = stride;
    }

    if (t == 0) {
        result[gl_WorkGroupID.x] = cache[0].x;
    }
}
