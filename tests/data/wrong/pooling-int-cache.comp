// puzzle: pooling
// mistake: the shared array holds ints, so every element loses its fraction on the way in
// fails: case 5
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

shared int cache[SHARED_SIZE];

void main() {
    uint i = gl_LocalInvocationID.x;
    uint n = uint(a.length());
    if (i < n) cache[i] = int(a[i]);
    barrier();
    if (i < n) {
        int sum = cache[i];
        if (i >= 1) sum += cache[i - 1];
        if (i >= 2) sum += cache[i - 2];
        result[i] = float(sum);
    }
}
