#version 450
// Matmul on the tensor cores: each subgroup multiplies 16 x 16 tiles of 16-bit floats into a
// 16 x 16 tile of 32-bit sums with one instruction (GL_KHR_cooperative_matrix).
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require             // gl_ScopeSubgroup
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_shader_subgroup_basic : require              // gl_SubgroupID, gl_NumSubgroups
#extension GL_EXT_control_flow_attributes : require            // [[unroll]]
layout(local_size_x_id = 0) in;                // 128 threads: 4 subgroups of 32 lanes on NVIDIA
layout(constant_id = 3) const uint ROWS = 1;   // rows of a and of result
layout(constant_id = 5) const uint INNER = 1;  // columns of a = rows of b: k runs along it
layout(constant_id = 6) const uint COLS = 1;   // columns of b and of result
layout(set = 0, binding = 0) readonly buffer A { float a[]; };   // ROWS x INNER, row-major
layout(set = 0, binding = 1) readonly buffer B { float b[]; };   // INNER x COLS, row-major
layout(set = 0, binding = 2) buffer Result { float result[]; };  // ROWS x COLS, row-major

const uint T = 16;         // a cooperative matrix is T x T
const uint BLOCK = 2 * T;  // a workgroup's block of result: BLOCK x BLOCK, four tiles
const uint DEPTH = 2 * T;  // k per step: two tiles deep
#define HALF_A coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseA>
#define HALF_B coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseB>
#define SUMS coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>

shared float16_t tileA[BLOCK * DEPTH];  // [row in block][k in step]
shared float16_t tileB[DEPTH * BLOCK];  // [k in step][column in block]
shared float tileC[BLOCK * BLOCK];      // the block's sums, on their way out

void main() {
    uint t = gl_LocalInvocationID.x, wg = gl_WorkGroupSize.x;
    uint row0 = gl_WorkGroupID.y * BLOCK, col0 = gl_WorkGroupID.x * BLOCK;
    // Tile q of the block (rows (q / 2) * T, columns (q % 2) * T) is subgroup
    // q % gl_NumSubgroups's: with 4 subgroups each has one, with fewer (wider) several.
    SUMS sums[4];
    [[unroll]] for (uint q = 0; q < 4; ++q) sums[q] = SUMS(0.0);
    // Your code here: per step along k, the slices of a and b into tileA and tileB as 16-bit
    // floats; then each subgroup's tiles multiplied with coopMatLoad and coopMatMulAdd into
    // sums[q]; at the end coopMatStore into tileC, and out to result inside the matrix.
}
