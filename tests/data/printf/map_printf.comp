#version 450
#extension GL_EXT_debug_printf : enable
// The map puzzle solved, printing from every thread: a uint, a float, an int, a vector, a bool.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = a[i];
    debugPrintfEXT("i=%u a=%.1f\n", i, v);
    debugPrintfEXT("neg=%d vec=%v3u odd=%u hex=%04x\n", -int(i), uvec3(i, i + 1u, i + 2u), (i & 1u) == 1u, i * 16u);
    result[i] = v + 10.0;
}
