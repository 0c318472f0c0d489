#version 450
// One thread per element; the test case chooses how many (specialization constant 0).
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };

void main() {
    // The GPU runs main() once per thread, all at the same time. There is no loop over the
    // elements: the "loop" is the launch itself. Each thread handles the element with its own
    // number.
    uint i = gl_GlobalInvocationID.x;

    // One read of a, one write of result: exactly the budget of this puzzle.
    // (Here every thread has an element. Puzzle 3 launches more threads than elements, and then
    // this line would need a guard.)
    result[i] = a[i] + 10.0;
}
