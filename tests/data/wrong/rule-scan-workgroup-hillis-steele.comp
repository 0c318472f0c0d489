// puzzle: scan-workgroup
// mistake: a Hillis-Steele scan (each level adds the cell `offset` to the left into every cell):
// the values are right, but it does O(n log n) additions where the statement asks for the
// work-efficient (Blelloch) scan's O(n); the trace counts its shared-memory writes
// traced
// fails: case 4
// fails: case 5
// finding: rule
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 2;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

shared uint temp[SHARED_SIZE];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    uint n = uint(a.length());
    temp[t] = t < n ? a[t] : 0u;
    temp[t + wg] = t + wg < n ? a[t + wg] : 0u;
    barrier();
    // Inclusive Hillis-Steele over both of this thread's cells: log2(SHARED_SIZE) levels, each
    // rewriting every cell.
    for (uint offset = 1u; offset < SHARED_SIZE; offset *= 2u) {
        uint lo = t >= offset ? temp[t - offset] : 0u;
        uint hi = temp[t + wg - offset];
        barrier();
        temp[t] += lo;
        temp[t + wg] += hi;
        barrier();
    }
    // Exclusive: the cell before.
    if (t < n) result[t] = t == 0u ? 0u : temp[t - 1u];
    if (t + wg < n) result[t + wg] = temp[t + wg - 1u];
}
