// Right for every case but the third (16 elements), where it never finishes: three nested loops of
// up to 2^32 rounds (lavapipe cuts a loop off after 65535 rounds: 65535^3 rounds of trigonometry
// still take days). Checked with the loop guard off, so nothing stops it but the case's deadline.
#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i] + 10.0;
    if (a.length() == 16) {
        float y = x;
        for (uint p = 0u; p < 0xffffffffu; ++p)
            for (uint q = 0u; q < 0xffffffffu; ++q)
                for (uint r = 0u; r < 0xffffffffu; ++r) y = sin(y) * 1.0001 + cos(y * 0.5);
        x += y;
    }
    result[i] = x;
}
