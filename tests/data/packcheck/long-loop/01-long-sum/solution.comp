#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float result[]; };

void main() {
    if (gl_GlobalInvocationID.x == 0) {
        float s = 0.0;
        for (uint i = 0; i < uint(a.length()); ++i) {
            s += a[i];
        }
        result[0] = s;
    }
}
