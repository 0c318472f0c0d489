// puzzle: zip
// expect: read limit
// mistake: gathers each vec4 of the previous kernel from four float loads: the same eight floats
// are eight requests, over the puzzle's global_reads = 2
#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) buffer Result { float result[]; };
layout(set = 0, binding = 2) buffer Result4 { vec4 result4[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = a.length(), whole = n / 4;
    if (i < whole) {
        uint c = 4 * i;
        vec4 x = vec4(a[c], a[c + 1], a[c + 2], a[c + 3]);
        vec4 y = vec4(b[c], b[c + 1], b[c + 2], b[c + 3]);
        result4[i] = x + y;
    }
    if (i >= 4 * whole && i < n) {
        result[i] = a[i] + b[i];
    }
}
