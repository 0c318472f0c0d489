#version 450
// Matmul on the tensor cores, bigger blocks: a workgroup computes a BM x BN block of result,
// each of its four subgroups a quarter of it (TM x TN tiles of 16 x 16), so a tile of a loaded
// into a cooperative matrix serves TN products and a tile of b TM. The next step's slices of a
// and b are read into registers while the subgroups multiply the current ones (two shared
// buffers: one barrier a step).
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require             // gl_ScopeSubgroup
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_shader_subgroup_basic : require              // gl_SubgroupID, subgroupBarrier
#extension GL_EXT_control_flow_attributes : require            // [[unroll]]
layout(local_size_x_id = 0) in;                // 128 threads: 4 subgroups of 32 lanes on NVIDIA
layout(constant_id = 3) const uint ROWS = 1;   // rows of a and of result
layout(constant_id = 5) const uint INNER = 1;  // columns of a = rows of b: k runs along it
layout(constant_id = 6) const uint COLS = 1;   // columns of b and of result
layout(set = 0, binding = 0) readonly buffer A { float a[]; };   // ROWS x INNER, row-major
layout(set = 0, binding = 1) readonly buffer B { float b[]; };   // INNER x COLS, row-major
layout(set = 0, binding = 2) buffer Result { float result[]; };  // ROWS x COLS, row-major

layout(constant_id = 7) const uint BM = 64;  // rows of a workgroup's block: a multiple of 32
layout(constant_id = 8) const uint BN = 64;  // its columns: a multiple of 32

const uint T = 16;                    // a cooperative matrix is T x T
const uint BK = 32;                   // k per step
const uint WG = 128;                  // threads a workgroup
const uint TM = BM / (2 * T);         // a quarter of the block: TM x TN tiles
const uint TN = BN / (2 * T);
const uint SA = BK + 8, SB = BN + 8;  // rows of the shared slices in 16-bit floats, padded
const uint LA = BM * BK / WG;         // values of a each thread copies a step
const uint LB = BK * BN / WG;         // ... and of b
#define HALF_A coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseA>
#define HALF_B coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseB>
#define SUMS coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>

shared float16_t tileA[2][BM * SA];  // [buffer][row in block][k in step]
shared float16_t tileB[2][BK * SB];  // [buffer][k in step][column in block]
shared float tileC[4][T * T];        // a quarter's edge tile, on its way out

void main() {
    uint t = gl_LocalInvocationID.x;
    uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;
    SUMS sums[TM * TN];  // a quarter's tiles: sums[i * TN + j] is tile (i, j) of it
    [[unroll]] for (uint i = 0; i < TM * TN; ++i) sums[i] = SUMS(0.0);
    // Your code here: a quarter of the block per subgroup (quarter q: rows (q / 2) * BM / 2,
    // columns (q % 2) * BN / 2), its TM x TN sums in SUMS sums[TM * TN]; per step of BK along k
    // the slices of a and b into one buffer of tileA and tileB while the subgroups multiply from
    // the other; at the end each tile into result, through tileC[q] where it sticks out.
}
