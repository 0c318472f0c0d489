// puzzle: guards
// expect: out of bounds
// mistake: no guard, after a harmless loop has filled the first 1024 trace records of every
// thread (the spare threads' accesses past the end are found only in a larger trace)
#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
shared float scratch[gl_WorkGroupSize.x]; // each thread uses only its own cell: no race

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t = gl_LocalInvocationID.x;
    scratch[t] = 0.0;
    for (uint k = 0; k < 600; ++k) scratch[t] += 1.0;
    result[i] = a[i] + 10.0;
}
