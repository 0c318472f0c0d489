// puzzle: map
// mistake: a loop that never ends, whose inner loop is longest on a different lane each time
// round. lavapipe runs a subgroup as one SIMD vector and counts the vector's back-edges: 8 a
// round here, while each lane takes 8 only one round in eight. It cuts the loops off at 65535
// of its back-edges, when no lane has taken 60000 of its own, and lets the write through: the
// loop budget must count as lavapipe does, or this kernel passes.
#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint sum = 0u;
    for (uint k = 0u; a[0] != 123456.0; ++k) {
        uint n = (k + i) % 8u == 0u ? 8u : 1u;
        for (uint j = 0u; j < n; ++j) {
            sum += j ^ k;
        }
    }
    result[i] = a[i] + 10.0 + (sum == 0xffffffffu ? 1.0 : 0.0);
}
