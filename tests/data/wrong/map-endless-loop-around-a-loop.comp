// puzzle: map
// mistake: a loop that never ends, around a loop of one pass. Counted as lavapipe counts (the
// last pass of each loop too), each round adds 3: the inner back-edge, the inner loop's end and
// the outer back-edge. Workgroups start with 0, 1 or 2 passes of another loop, so in one of
// every three the count reaches the loop budget at the inner loop's end, not at a back-edge: the
// budget must still stop and report every thread there.
#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint sum = 0u;
    for (uint s = 0u; s < gl_WorkGroupID.x % 3u; ++s) {
        sum += s;
    }
    uint passes = uint(a[0] * 0.0) + 1u;  // 1, unknown to the compiler
    for (uint k = 0u; a[0] != 123456.0; ++k) {
        for (uint j = 0u; j < passes; ++j) {
            sum += j ^ k;
        }
    }
    result[i] = a[i] + 10.0 + (sum == 0xffffffffu ? 1.0 : 0.0);
}
