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

float nextA[LA], nextB[LB];

void fetch(uint row0, uint col0, uint k0, uint t) {  // the step at k0 into registers
    [[unroll]] for (uint i = 0; i < LA; ++i) {  // a's slice
        uint e = i * WG + t, r = row0 + e / BK, k = k0 + e % BK;
        nextA[i] = r < ROWS && k < INNER ? a[r * INNER + k] : 0.0;
    }
    [[unroll]] for (uint i = 0; i < LB; ++i) {  // b's slice
        uint e = i * WG + t, k = k0 + e / BN, c = col0 + e % BN;
        nextB[i] = k < INNER && c < COLS ? b[k * COLS + c] : 0.0;
    }
}

void keep(uint buf, uint t) {  // the registers into shared buffer buf, as 16-bit floats
    [[unroll]] for (uint i = 0; i < LA; ++i) {  // into tileA
        uint e = i * WG + t;
        tileA[buf][(e / BK) * SA + e % BK] = float16_t(nextA[i]);
    }
    [[unroll]] for (uint i = 0; i < LB; ++i) {  // into tileB
        uint e = i * WG + t;
        tileB[buf][(e / BN) * SB + e % BN] = float16_t(nextB[i]);
    }
}

void main() {
    uint t = gl_LocalInvocationID.x;
    uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;
    uint steps = (INNER + BK - 1) / BK;
    // Quarter q of the block (rows (q / 2) * BM / 2, columns (q % 2) * BN / 2) is subgroup
    // q % gl_NumSubgroups's: with fewer than four subgroups the k loop runs again for the rest.
    for (uint q0 = 0; q0 < 4; q0 += gl_NumSubgroups) {
        uint q = q0 + gl_SubgroupID;  // the same for every lane of a subgroup
        uint qr = (q / 2) * (BM / 2), qc = (q % 2) * (BN / 2);
        SUMS sums[TM * TN];
        [[unroll]] for (uint i = 0; i < TM * TN; ++i) sums[i] = SUMS(0.0);
        fetch(row0, col0, 0, t);
        keep(0, t);
        barrier();  // the first step's slices complete
        for (uint s = 0; s < steps; ++s) {
            uint buf = s % 2;
            if (s + 1 < steps) fetch(row0, col0, (s + 1) * BK, t);  // in flight meanwhile
            if (q < 4) {
                [[unroll]] for (uint kk = 0; kk < BK; kk += T) {
                    HALF_A x[TM];
                    HALF_B y[TN];
                    [[unroll]] for (uint i = 0; i < TM; ++i)
                        coopMatLoad(x[i], tileA[buf], (qr + i * T) * SA + kk, SA,
                                    gl_CooperativeMatrixLayoutRowMajor);
                    [[unroll]] for (uint j = 0; j < TN; ++j)
                        coopMatLoad(y[j], tileB[buf], kk * SB + qc + j * T, SB,
                                    gl_CooperativeMatrixLayoutRowMajor);
                    [[unroll]] for (uint i = 0; i < TM; ++i) {  // TM x TN products
                        [[unroll]] for (uint j = 0; j < TN; ++j)
                            sums[i * TN + j] = coopMatMulAdd(x[i], y[j], sums[i * TN + j]);
                    }
                }
            }
            if (s + 1 < steps) keep(1 - buf, t);  // the other buffer: nobody reads it this step
            barrier();
        }
        if (q >= 4) continue;
        // Out: a tile inside result straight there (where its rows start 16 bytes apart, as a
        // cooperative store wants); any other through tileC, each lane copying the cells inside.
        [[unroll]] for (uint i = 0; i < TM; ++i) {
            [[unroll]] for (uint j = 0; j < TN; ++j) {
                uint r = row0 + qr + i * T, c = col0 + qc + j * T;
                if (COLS % 4 == 0 && r + T <= ROWS && c + T <= COLS) {
                    coopMatStore(sums[i * TN + j], result, r * COLS + c, COLS,
                                 gl_CooperativeMatrixLayoutRowMajor);
                } else {
                    coopMatStore(sums[i * TN + j], tileC[q], 0, T,
                                 gl_CooperativeMatrixLayoutRowMajor);
                    subgroupMemoryBarrierShared();
                    subgroupBarrier();
                    for (uint e = gl_SubgroupInvocationID; e < T * T; e += gl_SubgroupSize) {
                        uint rr = r + e / T, cc = c + e % T;
                        if (rr < ROWS && cc < COLS) result[rr * COLS + cc] = tileC[q][e];
                    }
                    subgroupBarrier();  // read before the next tile overwrites it
                }
            }
        }
    }
}
