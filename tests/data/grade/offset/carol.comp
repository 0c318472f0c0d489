// racy: reads a neighbour's shared cell with no barrier after the writes (0 points)
#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
shared float s[gl_WorkGroupSize.x];
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
    s[l] = a[i];
    float v = s[(l + 1u) % gl_WorkGroupSize.x];
    result[i] = v + 10.0;
}
