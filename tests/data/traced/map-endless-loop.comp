// puzzle: map
// expect: endless loop?
// mistake: the loop's counter never moves
#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float sum = a[i];
    for (uint k = 0; k < 10; k += 0) {
        sum += 0.0;
    }
    result[i] = sum + 10.0;
}
