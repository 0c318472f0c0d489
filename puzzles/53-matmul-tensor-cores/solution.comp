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
    for (uint k0 = 0; k0 < INNER; k0 += DEPTH) {
        // 1. The step's slices of a and b into shared memory as 16-bit floats, 0 outside the
        //    matrices; neighbouring threads read neighbouring addresses.
        for (uint i = t; i < BLOCK * DEPTH; i += wg) {
            uint r = row0 + i / DEPTH, k = k0 + i % DEPTH;
            tileA[i] = float16_t(r < ROWS && k < INNER ? a[r * INNER + k] : 0.0);
            uint kb = k0 + i / BLOCK, c = col0 + i % BLOCK;
            tileB[i] = float16_t(kb < INNER && c < COLS ? b[kb * COLS + c] : 0.0);
        }
        barrier();
        // 2. Each subgroup multiplies its tiles, T deep at a time: every lane of the subgroup
        //    takes part in each cooperative load and product, so the branch is the subgroup's.
        [[unroll]] for (uint q = 0; q < 4; ++q) {
            if (q % gl_NumSubgroups != gl_SubgroupID) continue;
            uint tr = (q / 2) * T, tc = (q % 2) * T;
            [[unroll]] for (uint kk = 0; kk < DEPTH; kk += T) {
                HALF_A x;
                HALF_B y;
                coopMatLoad(x, tileA, tr * DEPTH + kk, DEPTH, gl_CooperativeMatrixLayoutRowMajor);
                coopMatLoad(y, tileB, kk * BLOCK + tc, BLOCK, gl_CooperativeMatrixLayoutRowMajor);
                sums[q] = coopMatMulAdd(x, y, sums[q]);
            }
        }
        barrier();  // every tile read before the next step overwrites them
    }
    // 3. Out through shared memory: a block may stick out of result, a tile store may not.
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        if (q % gl_NumSubgroups != gl_SubgroupID) continue;
        coopMatStore(sums[q], tileC, (q / 2) * T * BLOCK + (q % 2) * T, BLOCK,
                     gl_CooperativeMatrixLayoutRowMajor);
    }
    barrier();  // every tile stored before the copy reads tileC
    for (uint i = t; i < BLOCK * BLOCK; i += wg) {
        uint r = row0 + i / BLOCK, c = col0 + i % BLOCK;
        if (r < ROWS && c < COLS) result[r * COLS + c] = tileC[i];
    }
}
