#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SHARED_SIZE = 1;  // WG + TAPS - 1
layout(constant_id = 4) const uint TAPS = 1;         // the filter's length, w.length()

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer W { float w[]; };
layout(set = 0, binding = 2) writeonly buffer Result { float result[]; };

// tile[c] = a[base + c]: the workgroup's block of WG elements, then the TAPS - 1 elements after
// it that the block's last outputs reach (0 past the end of a).
shared float tile[SHARED_SIZE];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    uint n = uint(a.length());
    uint base = gl_WorkGroupID.x * gl_WorkGroupSize.x;

    // The block: one element per thread.
    tile[t] = i < n ? a[i] : 0.0;
    // The halo: threads 0 .. TAPS - 2 fetch the elements after the block. That is TAPS - 1
    // threads, so the test is t < TAPS - 1 (or t <= TAPS - 2). The broken kernel had
    // t < TAPS - 2: one thread short, so the last halo cell, tile[WG + TAPS - 2], was never
    // written, and the one output that reads it, the block's last (thread WG - 1, whose last tap
    // is tile[WG - 1 + TAPS - 1]), added whatever an earlier workgroup had left there. Every
    // full block's last output was wrong; a short last block got away with it, since its
    // threads past the end fill those cells with 0.
    if (t < TAPS - 1u) {
        uint j = base + gl_WorkGroupSize.x + t;
        tile[gl_WorkGroupSize.x + t] = j < n ? a[j] : 0.0;
    }
    barrier();

    if (i < n) {
        float sum = 0.0;
        for (uint k = 0u; k < TAPS; ++k) {
            sum += tile[t + k] * w[k];
        }
        result[i] = sum;
    }
}
