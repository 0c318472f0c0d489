#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };       // column, n values
layout(set = 0, binding = 1) readonly buffer B { float b[]; };       // row, m values
layout(set = 0, binding = 2) buffer Result { float result[]; };      // n x m, row-major

void main() {
    uint j = gl_GlobalInvocationID.x; // column: which element of b
    uint i = gl_GlobalInvocationID.y; // row: which element of a

    // The output's shape is not a constant here: it follows from the two inputs.
    uint n = uint(a.length());
    uint m = uint(b.length());

    // n and m usually differ, so the two guards are different too. Mixing them up only shows
    // when the output is not square, which is why the tests include such cases.
    if (i < n && j < m) {
        // A row of the output is m cells long (the length of b, not of a).
        result[i * m + j] = a[i] + b[j];
    }
}
