// puzzle: map
// expect: inconclusive
// case: 1
// mistake: none in the output, but thread 0 makes about 2.9 million trace records (a long loop
// over shared memory), and a trace gives every thread as many slots as the busiest one: more than
// a trace can hold (256 MiB) even for 6 threads, so the check cannot vouch for it
#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
shared float scratch[gl_WorkGroupSize.x]; // each thread uses only its own cell: no race

// Two records each (a read and a write of shared memory); no loop, so no loop budget is spent.
#define BUMP scratch[t] += 1.0;
#define BUMP13 BUMP BUMP BUMP BUMP BUMP BUMP BUMP BUMP BUMP BUMP BUMP BUMP BUMP

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    scratch[t] = 0.0;
    if (t == 0) // one thread is enough: every thread of the case gets as many slots as the busiest
        for (uint k = 0; k < 55000; ++k) { // under the loop budget of 60000; 52 records a round
            BUMP13 BUMP13
        }
    result[i] = a[i] + 10.0;
}
