#version 450
// For the benchmark at N = 1 (tests/cli/cli_test.cpp): right only where a.length() is 1, so a
// benchmark that gives its kernel more cells than N (a buffer rounded up to 16 bytes) fails it.
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(a.length())) result[i] = a[i] + 9u + uint(a.length());
}
