#version 450
layout(local_size_x = 1) in;
shared float s[4];
void main() { float x = ((((1.0)))) * -s[gl_LocalInvocationIndex]; s[0] = x; barrier(); }
