#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint BINS = 1;   // bins of the histogram
layout(constant_id = 4) const uint ITEMS = 1;  // elements per thread

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };  // BINS counts, zero at the start

shared uint bins[BINS];  // this workgroup's own histogram

void main() {
    uint t = gl_LocalInvocationID.x;
    uint first = gl_WorkGroupID.x * gl_WorkGroupSize.x * ITEMS;  // the workgroup's WG x ITEMS elements
    // Your code here: load the thread's ITEMS elements first (uint v[ITEMS]), then count them
    // into bins, then add bins to result with at most BINS global atomics.
}
