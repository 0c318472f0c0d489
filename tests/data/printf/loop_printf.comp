#version 450
#extension GL_EXT_debug_printf : enable
// The map puzzle solved, printing in a loop of 100 iterations: only the first lines of each
// thread are recorded; the rest are counted.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    for (uint k = 0u; k < 100u; ++k) debugPrintfEXT("k=%u\n", k);
    result[i] = a[i] + 10.0;
}
