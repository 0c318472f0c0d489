// puzzle: map
// mistake: the sum goes through an int, which drops the fraction (2.25 + 10 gives 12)
// fails: case 5
#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    int sum = int(a[i]) + 10;
    result[i] = float(sum);
}
