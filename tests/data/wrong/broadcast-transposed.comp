// puzzle: broadcast
// mistake: row and column swapped (a is the column, b the row)
#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) buffer Result { float result[]; };
void main() {
    uint i = gl_GlobalInvocationID.y;
    uint j = gl_GlobalInvocationID.x;
    uint n = uint(a.length());
    uint m = uint(b.length());
    if (i < n && j < m) {
        result[i * m + j] = a[j] + b[i];
    }
}
