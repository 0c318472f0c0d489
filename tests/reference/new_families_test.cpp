// The reference ops of the families added with the sparse, signal and ordering puzzles: values
// worked out by hand (or by a plain loop written here another way), and the errors of the file
// an author gets for arguments that do not fit.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include "reference/reference_ops.h"

namespace vkp {
namespace {

using V = std::vector<double>;

BufferData buffer(ElementKind type, std::vector<uint64_t> dims, const V& values) {
    BufferData b = BufferData::zeros(type, Shape{std::move(dims)});
    EXPECT_EQ(b.shape.count(), values.size()) << "test data does not fit its shape";
    for (size_t i = 0; i < values.size() && i < b.words.size(); ++i)
        b.set(i, values[i]);
    return b;
}
BufferData floats(std::vector<uint64_t> dims, const V& v) {
    return buffer(ElementKind::Float, std::move(dims), v);
}
BufferData ints(std::vector<uint64_t> dims, const V& v) {
    return buffer(ElementKind::Int, std::move(dims), v);
}

V values(const BufferData& b) {
    V v;
    for (uint64_t i = 0; i < b.words.size(); ++i)
        v.push_back(b.get(i));
    return v;
}

std::vector<Shape> shapes(const std::vector<const BufferData*>& args) {
    std::vector<Shape> out;
    for (const BufferData* a : args)
        out.push_back(a->shape);
    return out;
}

// The op's result, after checking that its shape rule and value check accept the arguments.
BufferData run(const std::string& op, const std::vector<const BufferData*>& args,
               OpParams params = {}, ElementKind out = ElementKind::Float) {
    auto shape = referenceOpShape(op, shapes(args), params);
    EXPECT_TRUE(shape) << (shape ? "" : shape.error().message);
    auto problem = referenceOpValueError(op, args, params);
    EXPECT_FALSE(problem) << *problem;
    return runReferenceOp(op, args, params, out);
}

std::string shapeProblem(const std::string& op, const std::vector<const BufferData*>& args,
                         OpParams params = {}) {
    auto shape = referenceOpShape(op, shapes(args), params);
    return shape ? "" : shape.error().message;
}

TEST(MatrixOps, MatvecMultipliesEachRowByTheVector) {
    BufferData m = floats({2, 3}, {1, 2, 3, -1, 0.5, 0}), x = floats({3}, {2, -1, 0.25});
    EXPECT_EQ(values(run("matvec", {&m, &x})), (V{0.75, -2.5}));
    BufferData shortX = floats({2}, {1, 1});
    EXPECT_NE(shapeProblem("matvec", {&m, &shortX}).find("x has 2 elements"), std::string::npos);
}

// Four signed bytes to a word, byte 0 the lowest.
uint32_t pack(int8_t b0, int8_t b1, int8_t b2, int8_t b3) {
    return uint32_t(uint8_t(b0)) | uint32_t(uint8_t(b1)) << 8 | uint32_t(uint8_t(b2)) << 16 |
           uint32_t(uint8_t(b3)) << 24;
}

TEST(MatrixOps, MatmulI8SignExtendsEveryByteAndSumsInThirtyTwoBits) {
    BufferData a = BufferData::zeros(ElementKind::Uint, Shape{{2, 2}});
    BufferData bt = BufferData::zeros(ElementKind::Uint, Shape{{1, 2}});
    a.words = {pack(1, 2, 3, 4), pack(5, 6, 7, 8), pack(-128, 127, -1, 0), pack(0, 0, 0, -128)};
    bt.words = {pack(1, -1, 2, -2), pack(-128, 1, 0, 3)};
    // Row 0: 1 - 2 + 6 - 8 - 640 + 6 + 0 + 24 = -613. Row 1: -128 - 127 - 2 + 0 + 0 + 0 + 0 - 384.
    EXPECT_EQ(values(run("matmul_i8", {&a, &bt}, {}, ElementKind::Int)), (V{-613, -641}));
    BufferData wrongType = floats({1, 2}, {1, 2});
    EXPECT_NE(referenceOpValueError("matmul_i8", {&a, &wrongType}, {})->find("uint"),
              std::string::npos);
}

TEST(MatrixOps, CausalAttentionSeesOnlyEarlierKeys) {
    // One head, d = 1, q = k = 0 everywhere: the scores are equal, so row i is the mean of v's
    // first i + 1 rows.
    BufferData q = floats({3, 1}, {0, 0, 0}), k = floats({3, 1}, {0, 0, 0}),
               v = floats({3, 1}, {3, 5, 10});
    EXPECT_EQ(values(run("attention_causal", {&q, &k, &v}, {{"heads", 1}})), (V{3, 4, 6}));
    BufferData longQ = floats({4, 1}, {0, 0, 0, 0});
    EXPECT_NE(shapeProblem("attention_causal", {&longQ, &k, &v}, {{"heads", 1}}).find("more rows"),
              std::string::npos);
}

TEST(SparseOps, CsrProductHandlesEmptyRowsAndOneLongRow) {
    // Rows: [2 at col 1], [], [1 at 0, 0.5 at 2, -1 at 3], [].
    BufferData rowptr = ints({5}, {0, 1, 1, 4, 4}), colidx = ints({4}, {1, 0, 2, 3}),
               vals = floats({4}, {2, 1, 0.5, -1}), x = floats({4}, {10, 0.25, 4, 3});
    EXPECT_EQ(values(run("spmv_csr", {&rowptr, &colidx, &vals, &x})), (V{0.5, 0, 9, 0}));
}

TEST(SparseOps, CsrArgumentsThatAreNoMatrixAreNamed) {
    BufferData colidx = ints({2}, {0, 5}), vals = floats({2}, {1, 1}), x = floats({3}, {1, 1, 1});
    BufferData falling = ints({3}, {0, 2, 1});
    EXPECT_NE(referenceOpValueError("spmv_csr", {&falling, &colidx, &vals, &x}, {})
                  ->find("rowptr[2] = 1 is below"),
              std::string::npos);
    BufferData rowptr = ints({2}, {0, 2});
    EXPECT_NE(referenceOpValueError("spmv_csr", {&rowptr, &colidx, &vals, &x}, {})
                  ->find("colidx[1] = 5 is no column"),
              std::string::npos);
    BufferData shortEnd = ints({2}, {0, 1});
    EXPECT_NE(referenceOpValueError("spmv_csr", {&shortEnd, &colidx, &vals, &x}, {})
                  ->find("not at the 2 entries"),
              std::string::npos);
    BufferData fewVals = floats({1}, {1});
    EXPECT_NE(shapeProblem("spmv_csr", {&rowptr, &colidx, &fewVals, &x}).find("one each"),
              std::string::npos);
}

TEST(SparseOps, EllProductSkipsPadding) {
    BufferData colidx = ints({2, 2}, {2, -1, 0, 1}), vals = floats({2, 2}, {0.5, 99, 1, -2}),
               x = floats({3}, {1, 2, 8});
    EXPECT_EQ(values(run("spmv_ell", {&colidx, &vals, &x})), (V{4, -3}));
}

TEST(SparseOps, BfsLevelsCountEdgesAndMarkUnreachableNodes) {
    // 0 -> 1, 0 -> 2, 1 -> 3, 3 -> 3 (a self-loop), 2 -> 1 (a longer way to 1); node 4 alone.
    BufferData rowptr = ints({6}, {0, 2, 3, 4, 5, 5}), colidx = ints({5}, {1, 2, 3, 1, 3});
    EXPECT_EQ(values(run("bfs_levels", {&rowptr, &colidx}, {{"source", 0}}, ElementKind::Int)),
              (V{0, 1, 1, 2, -1}));
    EXPECT_EQ(values(run("bfs_levels", {&rowptr, &colidx}, {{"source", 3}}, ElementKind::Int)),
              (V{-1, -1, -1, 0, -1}));
    EXPECT_NE(shapeProblem("bfs_levels", {&rowptr, &colidx}, {{"source", 5}}).find("no node"),
              std::string::npos);
}

TEST(SignalOps, Conv2dCentresTheFilterAndCountsOutsideAsZero) {
    BufferData image = floats({2, 3}, {1, 2, 3, 4, 5, 6});
    BufferData ones = floats({3, 3}, V(9, 1.0));
    // Each cell: the sum of its 3x3 neighbourhood inside the image.
    EXPECT_EQ(values(run("conv2d", {&image, &ones})), (V{12, 21, 16, 12, 21, 16}));
    BufferData shiftRight = floats({1, 3}, {1, 0, 0}); // out[r, c] = image[r, c - 1]
    EXPECT_EQ(values(run("conv2d", {&image, &shiftRight})), (V{0, 1, 2, 0, 4, 5}));
    BufferData even = floats({2, 2}, {1, 1, 1, 1});
    EXPECT_NE(shapeProblem("conv2d", {&image, &even}).find("odd"), std::string::npos);
}

TEST(SignalOps, FftMatchesTheDefinitionRowByRow) {
    // Row 0: an impulse (all ones out); row 1: x[j] = j for n = 4, worked out directly below.
    BufferData x = floats({2, 8}, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 3, 0});
    V got = values(run("fft", {&x}));
    V want = {1, 0, 1, 0, 1, 0, 1, 0};
    for (int k = 0; k < 4; ++k) {
        std::complex<double> s = 0;
        for (int j = 0; j < 4; ++j)
            s += double(j) * std::polar(1.0, -2 * std::numbers::pi * j * k / 4);
        want.push_back(s.real());
        want.push_back(s.imag());
    }
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], 1e-6) << "element " << i;
    EXPECT_NEAR(got[8], 6, 1e-6); // the sum 0 + 1 + 2 + 3
    BufferData three = floats({6}, V(6, 0.0));
    EXPECT_NE(shapeProblem("fft", {&three}).find("power of two"), std::string::npos);
    EXPECT_EQ(referenceOpTypeError("fft", ElementKind::Int, "y").has_value(), true);
}

TEST(SignalOps, FftOfSixtyFourUnevenValuesMatchesTheDefinition) {
    V in;
    for (int j = 0; j < 128; ++j)
        in.push_back(double((j * 37) % 11) - 5 + (j % 3) * 0.25);
    BufferData x = floats({128}, in);
    V got = values(run("fft", {&x}));
    for (int k = 0; k < 64; ++k) {
        std::complex<double> s = 0;
        for (int j = 0; j < 64; ++j)
            s += std::complex<double>(in[2 * j], in[2 * j + 1]) *
                 std::polar(1.0, -2 * std::numbers::pi * ((j * k) % 64) / 64);
        EXPECT_NEAR(got[2 * k], s.real(), 1e-4) << "X[" << k << "]";
        EXPECT_NEAR(got[2 * k + 1], s.imag(), 1e-4) << "X[" << k << "]";
    }
}

TEST(OrderOps, BlockSortSortsEachRunAndAShortLastOne) {
    BufferData x = ints({7}, {3, -1, 2, 0, 9, -5, 4});
    EXPECT_EQ(values(run("block_sort", {&x}, {{"block", 3}}, ElementKind::Int)),
              (V{-1, 2, 3, -5, 0, 9, 4}));
}

TEST(OrderOps, TopkKeepsEachRowsLargestValuesLargestFirst) {
    BufferData x = floats({2, 4}, {1, 4, 4, -2, 0.5, -1, 3, 2});
    EXPECT_EQ(values(run("topk", {&x}, {{"k", 2}})), (V{4, 4, 3, 2}));
    EXPECT_EQ(values(run("topk", {&x}, {{"k", 4}})), (V{4, 4, 1, -2, 3, 2, 0.5, -1}));
    EXPECT_NE(shapeProblem("topk", {&x}, {{"k", 5}}).find("more than a row's 4"),
              std::string::npos);
}

} // namespace
} // namespace vkp
