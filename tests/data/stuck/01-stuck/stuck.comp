// Right for every case but the third (16776960 elements), which never finishes: 50000 rounds of
// trigonometry in each of its 16.7M threads (hours on 2 cores). Checked with the loop guard off, so
// nothing stops it but the case's deadline.
#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    if (a.length() == 16776960) {
        float y = x;
        for (uint k = 0u; k < 50000u; ++k) y = sin(y) * 1.0001 + cos(y * 0.5);
        x += y * 1e-30; // used, so the loop is kept (and too small to change the sum)
    }
    result[i] = x + 10.0;
}
