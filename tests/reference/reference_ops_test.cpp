// The CPU reference ops that compute every puzzle's expected output: hand-computed values,
// 32-bit wrap-around for integer outputs, and the shape errors the loader relies on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "reference/reference_ops.h"

namespace vkp {
namespace {

BufferData makeBuffer(ElementKind type, std::vector<uint64_t> dims,
                      const std::vector<double>& values) {
    BufferData b = BufferData::zeros(type, Shape{std::move(dims)});
    EXPECT_EQ(b.shape.count(), values.size()) << "test data does not fit its shape";
    for (size_t i = 0; i < values.size() && i < b.words.size(); ++i)
        b.set(i, values[i]);
    return b;
}

// start, start+1, ... as a buffer of `dims`.
BufferData iota(ElementKind type, std::vector<uint64_t> dims, double start = 0) {
    uint64_t n = Shape{dims}.count();
    std::vector<double> v(n);
    std::iota(v.begin(), v.end(), start);
    return makeBuffer(type, std::move(dims), v);
}

std::vector<double> values(const BufferData& b) {
    std::vector<double> v;
    for (uint64_t i = 0; i < b.words.size(); ++i)
        v.push_back(b.get(i));
    return v;
}

BufferData run(const std::string& op, const std::vector<const BufferData*>& args,
               OpParams params = {}, ElementKind out = ElementKind::Float) {
    return runReferenceOp(op, args, params, out);
}

using V = std::vector<double>;

TEST(ReferenceOps, CatalogListsEveryOpWithItsArityAndParameters) {
    std::set<std::string> names;
    for (const ReferenceOpInfo& op : referenceOps()) {
        names.insert(op.name);
        EXPECT_EQ(findReferenceOp(op.name), &op);
        EXPECT_NE(std::string(op.summary), "");
    }
    EXPECT_EQ(names, (std::set<std::string>{"add_scalar",
                                            "add",
                                            "outer_add",
                                            "window_sum",
                                            "dot",
                                            "conv1d",
                                            "block_sum",
                                            "sum",
                                            "row_sum",
                                            "matmul",
                                            "matmul_f16",
                                            "inclusive_scan",
                                            "exclusive_scan",
                                            "block_inclusive_scan",
                                            "block_exclusive_scan",
                                            "block_reverse",
                                            "copy",
                                            "reverse",
                                            "transpose",
                                            "gather",
                                            "histogram",
                                            "segmented_scan",
                                            "sort",
                                            "softmax",
                                            "attention",
                                            "layer_norm",
                                            "stencil",
                                            "attention_causal",
                                            "matvec",
                                            "matmul_i8",
                                            "spmv_csr",
                                            "spmv_ell",
                                            "bfs_levels",
                                            "conv2d",
                                            "fft",
                                            "block_sort",
                                            "topk"}));
    EXPECT_EQ(findReferenceOp("add_scalar")->arity, 1);
    ASSERT_EQ(findReferenceOp("add_scalar")->params.size(), 1u);
    EXPECT_STREQ(findReferenceOp("add_scalar")->params[0], "scalar");
    EXPECT_EQ(findReferenceOp("matmul")->arity, 2);
    EXPECT_STREQ(findReferenceOp("window_sum")->params.at(0), "window");
    EXPECT_STREQ(findReferenceOp("block_sum")->params.at(0), "block");
    EXPECT_EQ(findReferenceOp("mul"), nullptr);
    EXPECT_EQ(findReferenceOp(""), nullptr);
}

// An op is registered whole or not at all: a description, a shape rule and a computation,
// and for square 2D arguments the rule gives a shape the computation fills.
TEST(ReferenceOps, EveryOpInTheTableHasADescriptionAnOutputShapeAndACompute) {
    for (const ReferenceOpInfo& op : referenceOps()) {
        ASSERT_NE(op.summary, nullptr) << op.name;
        EXPECT_NE(std::string(op.summary), "") << op.name;
        ASSERT_NE(op.outputShape, nullptr) << op.name;
        ASSERT_NE(op.compute, nullptr) << op.name;
        BufferData square = BufferData::zeros(ElementKind::Int, Shape{{4, 4}});
        BufferData perColumn = BufferData::zeros(ElementKind::Int, Shape{{4}});
        BufferData oddFilter = BufferData::zeros(ElementKind::Int, Shape{{3, 3}});
        std::vector<const BufferData*> args(op.arity, &square);
        if (std::string(op.name) == "layer_norm") args = {&square, &perColumn, &perColumn};
        if (std::string(op.name) == "matvec") args = {&square, &perColumn};
        if (std::string(op.name) == "conv2d") args = {&square, &oddFilter};
        std::vector<Shape> shapes;
        for (const BufferData* a : args)
            shapes.push_back(a->shape);
        OpParams params;
        for (const char* p : op.params)
            params[p] = 2;
        auto shape = referenceOpShape(op.name, shapes, params);
        ASSERT_TRUE(shape.ok()) << op.name << ": " << shape.error().message;
        EXPECT_GT(shape->count(), 0u) << op.name;
        ElementKind out = op.floatOnly ? ElementKind::Float : ElementKind::Int;
        EXPECT_EQ(referenceOpTypeError(op.name, ElementKind::Int, "out").has_value(), op.floatOnly)
            << op.name;
        EXPECT_FALSE(referenceOpTypeError(op.name, ElementKind::Float, "out")) << op.name;
        EXPECT_EQ(runReferenceOp(op.name, args, params, out).words.size(), shape->count())
            << op.name;
    }
}

TEST(ReferenceOps, AddScalar) {
    BufferData a = iota(ElementKind::Float, {6});
    BufferData r = run("add_scalar", {&a}, {{"scalar", 10}});
    EXPECT_EQ(r.shape, Shape{{6}});
    EXPECT_EQ(values(r), (V{10, 11, 12, 13, 14, 15}));
    EXPECT_EQ(r.type, ElementKind::Float);
}

TEST(ReferenceOps, AddKeepsTheFirstArgumentsShape) {
    BufferData x = makeBuffer(ElementKind::Int, {2, 2}, {1, 2, 3, 4});
    BufferData y = makeBuffer(ElementKind::Int, {2, 2}, {10, -20, 30, -40});
    BufferData r = run("add", {&x, &y}, {}, ElementKind::Int);
    EXPECT_EQ(r.shape, (Shape{{2, 2}}));
    EXPECT_EQ(values(r), (V{11, -18, 33, -36}));
}

TEST(ReferenceOps, OuterAddIsColumnByRow) {
    BufferData col = makeBuffer(ElementKind::Float, {3}, {0, 10, 20});
    BufferData row = makeBuffer(ElementKind::Float, {2}, {1, 2});
    BufferData r = run("outer_add", {&col, &row});
    EXPECT_EQ(r.shape, (Shape{{3, 2}}));
    EXPECT_EQ(values(r), (V{1, 2, 11, 12, 21, 22}));
}

TEST(ReferenceOps, WindowSumTreatsMissingTermsAsZero) {
    BufferData a = iota(ElementKind::Float, {8});
    BufferData r = run("window_sum", {&a}, {{"window", 3}});
    EXPECT_EQ(values(r), (V{0, 1, 3, 6, 9, 12, 15, 18}));
    BufferData one = run("window_sum", {&a}, {{"window", 1}});
    EXPECT_EQ(values(one), values(a));
}

TEST(ReferenceOps, DotIsASingleElement) {
    BufferData a4 = iota(ElementKind::Float, {4});
    BufferData r4 = run("dot", {&a4, &a4});
    EXPECT_EQ(r4.shape, Shape{{1}});
    EXPECT_EQ(values(r4), (V{14}));
    BufferData a5 = iota(ElementKind::Float, {5});
    EXPECT_EQ(values(run("dot", {&a5, &a5})), (V{30}));
}

TEST(ReferenceOps, Conv1dDropsTermsPastTheEnd) {
    BufferData a = iota(ElementKind::Float, {15});
    BufferData k = iota(ElementKind::Float, {4});
    // out[i] = a[i]*0 + a[i+1]*1 + a[i+2]*2 + a[i+3]*3 = 6i + 14 while i + 3 < 15; then
    // out[12] = 13*1 + 14*2 = 41, out[13] = 14*1 = 14, out[14] = 14*0 = 0.
    EXPECT_EQ(values(run("conv1d", {&a, &k})),
              (V{14, 20, 26, 32, 38, 44, 50, 56, 62, 68, 74, 80, 41, 14, 0}));
}

TEST(ReferenceOps, BlockSumRoundsTheBlockCountUp) {
    BufferData a10 = iota(ElementKind::Float, {10});
    BufferData r10 = run("block_sum", {&a10}, {{"block", 8}});
    EXPECT_EQ(r10.shape, Shape{{2}});
    EXPECT_EQ(values(r10), (V{28, 17}));
    BufferData a15 = iota(ElementKind::Float, {15});
    EXPECT_EQ(values(run("block_sum", {&a15}, {{"block", 8}})), (V{28, 77}));
}

// The total of every element, whatever the count: a plain loop's sum, of a 1-D and a 2-D input,
// and wrapping like the GPU in an int output (where block_sum's block would have to be the count).
TEST(ReferenceOps, SumIsTheTotalOfEveryElement) {
    for (uint64_t n : {1u, 7u, 1000u}) {
        BufferData a = iota(ElementKind::Float, {n}, -3);
        double loop = 0;
        for (uint64_t i = 0; i < n; ++i)
            loop += a.get(i);
        BufferData r = run("sum", {&a});
        EXPECT_EQ(r.shape, Shape{{1}}) << n;
        EXPECT_EQ(values(r), (V{loop})) << n;
    }
    BufferData m = iota(ElementKind::Float, {4, 6});
    EXPECT_EQ(values(run("sum", {&m})), (V{276}));
    BufferData big = makeBuffer(ElementKind::Int, {2}, {2147483647, 1});
    EXPECT_EQ(values(run("sum", {&big}, {}, ElementKind::Int)), (V{-2147483648.0}));
}

TEST(ReferenceOps, RowSum) {
    BufferData m = iota(ElementKind::Float, {4, 6});
    BufferData r = run("row_sum", {&m});
    EXPECT_EQ(r.shape, Shape{{4}});
    EXPECT_EQ(values(r), (V{15, 51, 87, 123}));
}

TEST(ReferenceOps, Matmul) {
    BufferData a = iota(ElementKind::Float, {3, 3}, 0);
    BufferData b = iota(ElementKind::Float, {3, 3}, 9);
    BufferData r = run("matmul", {&a, &b});
    EXPECT_EQ(r.shape, (Shape{{3, 3}}));
    EXPECT_EQ(values(r), (V{42, 45, 48, 150, 162, 174, 258, 279, 300}));
}

// Each input is rounded to the nearest 16-bit float first: 11 significant bits, ties to even,
// steps of 2^-24 below 2^-14, infinity past 65504. The products are then summed exactly.
TEST(ReferenceOps, MatmulF16RoundsEveryInputToAHalfFirst) {
    const double ulp1 = 1.0 / 1024; // a half's step between 1 and 2
    BufferData a = makeBuffer(ElementKind::Float, {1, 5},
                              {1 + ulp1 / 2,         // a tie: to even, 1
                               1 + 3 * ulp1 / 2,     // a tie: to even, 1 + 2 ulp
                               1 + 0.7 * ulp1,       // nearer 1 + ulp
                               0.1,                  // 0.0999755859375 in a half
                               std::ldexp(3, -26)}); // below the smallest half step: 2^-24
    V expected{1, 1 + 2 * ulp1, 1 + ulp1, 0.0999755859375, std::ldexp(1, -24)};
    for (size_t k = 0; k < 5; ++k) {
        std::vector<double> pick(5, 0);
        pick[k] = 1;
        BufferData b = makeBuffer(ElementKind::Float, {5, 1}, pick);
        BufferData r = run("matmul_f16", {&a, &b});
        EXPECT_EQ(r.shape, (Shape{{1, 1}}));
        EXPECT_EQ(r.get(0), static_cast<float>(expected[k])) << "input " << k;
    }
    // Past the largest half (65504): infinity.
    BufferData big = makeBuffer(ElementKind::Float, {1, 1}, {65520});
    BufferData one = makeBuffer(ElementKind::Float, {1, 1}, {1});
    EXPECT_EQ(run("matmul_f16", {&big, &one}).get(0), INFINITY);
    EXPECT_EQ(run("matmul_f16", {&one, &big}).get(0), INFINITY);
    // The plain op keeps the inputs as they are: the two differ where an input is not a half.
    std::vector<double> first(5, 0);
    first[0] = 1;
    BufferData b = makeBuffer(ElementKind::Float, {5, 1}, first);
    EXPECT_EQ(run("matmul", {&a, &b}).get(0), static_cast<float>(1 + ulp1 / 2));
}

TEST(ReferenceOps, MatmulF16IsForFloatOutputsOnly) {
    EXPECT_TRUE(findReferenceOp("matmul_f16")->floatOnly);
    EXPECT_EQ(*referenceOpShape("matmul_f16", {Shape{{2, 3}}, Shape{{3, 5}}}, {}), (Shape{{2, 5}}));
}

TEST(ReferenceOps, MatmulOfNonSquareMatrices) {
    BufferData a = makeBuffer(ElementKind::Int, {2, 3}, {1, 2, 3, 4, 5, 6});
    BufferData b = makeBuffer(ElementKind::Int, {3, 1}, {1, 0, -1});
    BufferData r = run("matmul", {&a, &b}, {}, ElementKind::Int);
    EXPECT_EQ(r.shape, (Shape{{2, 1}}));
    EXPECT_EQ(values(r), (V{-2, -2}));
}

TEST(ReferenceOps, InclusiveAndExclusiveScan) {
    BufferData a = makeBuffer(ElementKind::Float, {5}, {1, 2, 3, 4, 5});
    EXPECT_EQ(values(run("inclusive_scan", {&a})), (V{1, 3, 6, 10, 15}));
    EXPECT_EQ(values(run("exclusive_scan", {&a})), (V{0, 1, 3, 6, 10}));
}

TEST(ReferenceOps, BlockScansRestartAtEveryBlock) {
    BufferData a = makeBuffer(ElementKind::Uint, {7}, {1, 2, 3, 4, 5, 6, 7});
    EXPECT_EQ(values(run("block_inclusive_scan", {&a}, {{"block", 3}}, ElementKind::Uint)),
              (V{1, 3, 6, 4, 9, 15, 7}));
    EXPECT_EQ(values(run("block_exclusive_scan", {&a}, {{"block", 3}}, ElementKind::Uint)),
              (V{0, 1, 3, 0, 4, 9, 0}));
    EXPECT_FALSE(referenceOpShape("block_inclusive_scan", {Shape{{7}}}, {}).ok()); // needs a block
    EXPECT_FALSE(referenceOpShape("block_inclusive_scan", {Shape{{7}}}, {{"block", 0}}).ok());
}

TEST(ReferenceOps, BlockReverseMirrorsEveryBlockAndTheShortLastOne) {
    BufferData a = makeBuffer(ElementKind::Uint, {7}, {1, 2, 3, 4, 5, 6, 7});
    EXPECT_EQ(values(run("block_reverse", {&a}, {{"block", 3}}, ElementKind::Uint)),
              (V{3, 2, 1, 6, 5, 4, 7}));
    EXPECT_EQ(values(run("block_reverse", {&a}, {{"block", 4}}, ElementKind::Uint)),
              (V{4, 3, 2, 1, 7, 6, 5}));
    EXPECT_FALSE(referenceOpShape("block_reverse", {Shape{{7}}}, {}).ok()); // needs a block
}

TEST(ReferenceOps, IntExclusiveScanWithNegatives) {
    BufferData a = makeBuffer(ElementKind::Int, {5}, {3, -5, 2, -7, 1});
    BufferData r = run("exclusive_scan", {&a}, {}, ElementKind::Int);
    EXPECT_EQ(values(r), (V{0, 3, -2, 0, -7}));
    EXPECT_EQ(r.words[2], 0xFFFFFFFEu); // -2 as the GPU stores it
    EXPECT_EQ(values(run("inclusive_scan", {&a}, {}, ElementKind::Int)), (V{3, -2, 0, -7, -6}));
}

TEST(ReferenceOps, UintOutputsWrapModulo2To32) {
    BufferData a = makeBuffer(ElementKind::Uint, {2}, {4294967295.0, 7});
    BufferData r = run("add_scalar", {&a}, {{"scalar", 1}}, ElementKind::Uint);
    EXPECT_EQ(r.words, (std::vector<uint32_t>{0u, 8u}));
    // 65536 * 65537 = 2^32 + 65536, which wraps to 65536; plus 3 * 5.
    BufferData x = makeBuffer(ElementKind::Uint, {2}, {65536, 3});
    BufferData y = makeBuffer(ElementKind::Uint, {2}, {65537, 5});
    EXPECT_EQ(run("dot", {&x, &y}, {}, ElementKind::Uint).words, (std::vector<uint32_t>{65551u}));
}

TEST(ReferenceOps, IntOutputsWrapLikeTheGpu) {
    BufferData a = makeBuffer(ElementKind::Int, {2}, {2147483647, -2147483648.0});
    BufferData up = run("add_scalar", {&a}, {{"scalar", 1}}, ElementKind::Int);
    EXPECT_EQ(values(up), (V{-2147483648.0, -2147483647}));
    BufferData down = run("add_scalar", {&a}, {{"scalar", -1}}, ElementKind::Int);
    EXPECT_EQ(values(down), (V{2147483646, 2147483647}));
    BufferData sum = run("inclusive_scan", {&a}, {}, ElementKind::Int);
    EXPECT_EQ(values(sum), (V{2147483647, -1}));
}

TEST(ReferenceOps, FloatOutputsAreComputedInDoubleAndRoundedOnce) {
    // 2^24 + 1 is not a float, 2^24 + 2 is: a running float sum would stay at 2^24.
    BufferData a = makeBuffer(ElementKind::Float, {3}, {16777216, 1, 1});
    EXPECT_EQ(values(run("inclusive_scan", {&a})), (V{16777216, 16777216, 16777218}));
    BufferData h = makeBuffer(ElementKind::Float, {2}, {0.5, 0.25});
    EXPECT_EQ(values(run("add_scalar", {&h}, {{"scalar", 0.125}})), (V{0.625, 0.375}));
}

// ---- shapes and their errors ----

std::string shapeError(const std::string& op, const std::vector<Shape>& args,
                       const OpParams& params = {}) {
    auto r = referenceOpShape(op, args, params);
    if (r.ok()) return "(accepted: " + r->str() + ")";
    EXPECT_EQ(r.error().kind, ErrorKind::PuzzleFile);
    EXPECT_TRUE(r.error().where.file.empty()) << "the caller adds the location";
    return r.error().message;
}

TEST(ReferenceOpShape, ResultShapes) {
    EXPECT_EQ(*referenceOpShape("add_scalar", {Shape{{2, 5}}}, {{"scalar", 1}}), (Shape{{2, 5}}));
    EXPECT_EQ(*referenceOpShape("outer_add", {Shape{{3}}, Shape{{4}}}, {}), (Shape{{3, 4}}));
    EXPECT_EQ(*referenceOpShape("dot", {Shape{{7}}, Shape{{7}}}, {}), (Shape{{1}}));
    EXPECT_EQ(*referenceOpShape("conv1d", {Shape{{15}}, Shape{{4}}}, {}), (Shape{{15}}));
    EXPECT_EQ(*referenceOpShape("block_sum", {Shape{{16}}}, {{"block", 8}}), (Shape{{2}}));
    EXPECT_EQ(*referenceOpShape("block_sum", {Shape{{17}}}, {{"block", 8}}), (Shape{{3}}));
    EXPECT_EQ(*referenceOpShape("row_sum", {Shape{{4, 6}}}, {}), (Shape{{4}}));
    EXPECT_EQ(*referenceOpShape("matmul", {Shape{{2, 3}}, Shape{{3, 5}}}, {}), (Shape{{2, 5}}));
    EXPECT_EQ(*referenceOpShape("exclusive_scan", {Shape{{9}}}, {}), (Shape{{9}}));
}

TEST(ReferenceOpShape, UnknownOp) {
    EXPECT_EQ(shapeError("mul", {Shape{{3}}}), "unknown reference op 'mul'");
}

TEST(ReferenceOpShape, WrongArity) {
    EXPECT_EQ(shapeError("add", {Shape{{3}}}), "add takes 2 argument(s), not 1");
    EXPECT_EQ(shapeError("row_sum", {Shape{{2, 2}}, Shape{{2, 2}}}),
              "row_sum takes 1 argument(s), not 2");
    EXPECT_EQ(shapeError("dot", {}), "dot takes 2 argument(s), not 0");
}

TEST(ReferenceOpShape, MissingParameter) {
    EXPECT_EQ(shapeError("add_scalar", {Shape{{3}}}), "add_scalar needs the parameter 'scalar'");
    EXPECT_EQ(shapeError("window_sum", {Shape{{3}}}, {{"scalar", 2}}),
              "window_sum needs the parameter 'window'");
    EXPECT_EQ(shapeError("block_sum", {Shape{{3}}}), "block_sum needs the parameter 'block'");
}

TEST(ReferenceOpShape, MatmulShapesMustFit) {
    EXPECT_EQ(shapeError("matmul", {Shape{{2, 3}}, Shape{{2, 3}}}),
              "matmul: [2, 3] @ [2, 3] do not fit (inner sizes differ)");
    EXPECT_EQ(shapeError("matmul", {Shape{{6}}, Shape{{6}}}), "matmul needs two 2D arguments");
    EXPECT_EQ(shapeError("matmul", {Shape{{2, 3}}, Shape{{3}}}), "matmul needs two 2D arguments");
}

// Issue 22: the ops a teacher needs most, each against a plain loop over random-looking data.
BufferData scrambled(ElementKind type, std::vector<uint64_t> dims, int mod, int offset) {
    uint64_t n = Shape{dims}.count();
    std::vector<double> v(n);
    for (uint64_t i = 0; i < n; ++i)
        v[i] = static_cast<double>((i * 37 + 11) % mod) + offset;
    return makeBuffer(type, std::move(dims), v);
}

TEST(ReferenceOps, CopyAndReverseMatchALoop) {
    for (ElementKind type : {ElementKind::Float, ElementKind::Int, ElementKind::Uint}) {
        BufferData x = scrambled(type, {13}, 9, type == ElementKind::Uint ? 0 : -4);
        BufferData copied = run("copy", {&x}, {}, type);
        BufferData reversed = run("reverse", {&x}, {}, type);
        ASSERT_EQ(reversed.shape, x.shape);
        for (uint64_t i = 0; i < 13; ++i) {
            EXPECT_EQ(copied.words[i], x.words[i]) << i;
            EXPECT_EQ(reversed.get(i), x.get(12 - i)) << i;
        }
    }
    BufferData m = iota(ElementKind::Float, {2, 3});
    EXPECT_EQ(run("copy", {&m}).shape, m.shape); // a 2D copy stays 2D
    EXPECT_EQ(values(run("reverse", {&m})), (V{5, 4, 3, 2, 1, 0}));
}

TEST(ReferenceOps, TransposeMatchesALoop) {
    BufferData m = scrambled(ElementKind::Int, {3, 5}, 11, -5);
    BufferData t = run("transpose", {&m}, {}, ElementKind::Int);
    ASSERT_EQ(t.shape, (Shape{{5, 3}}));
    for (uint64_t r = 0; r < 3; ++r)
        for (uint64_t c = 0; c < 5; ++c)
            EXPECT_EQ(t.get(c * 3 + r), m.get(r * 5 + c)) << r << "," << c;
    EXPECT_EQ(shapeError("transpose", {Shape{{6}}}), "transpose needs a 2D argument [rows, cols]");
}

TEST(ReferenceOps, GatherMatchesALoopAndIsShapedLikeTheIndices) {
    BufferData x = scrambled(ElementKind::Float, {10}, 7, -3);
    BufferData idx = scrambled(ElementKind::Uint, {2, 4}, 10, 0);
    ASSERT_FALSE(referenceOpValueError("gather", {&x, &idx}, {}));
    BufferData g = run("gather", {&x, &idx});
    ASSERT_EQ(g.shape, (Shape{{2, 4}}));
    for (uint64_t i = 0; i < 8; ++i)
        EXPECT_EQ(g.get(i), x.get(static_cast<uint64_t>(idx.get(i)))) << i;
    BufferData intIdx = makeBuffer(ElementKind::Int, {3}, {2, 0, 2});
    EXPECT_EQ(values(run("gather", {&x, &intIdx}, {}, ElementKind::Int)),
              (V{x.get(2), x.get(0), x.get(2)}));
}

TEST(ReferenceOps, GatherNamesAnIndexOutsideTheBuffer) {
    BufferData x = iota(ElementKind::Float, {4});
    BufferData over = makeBuffer(ElementKind::Int, {3}, {0, 4, 1});
    BufferData negative = makeBuffer(ElementKind::Int, {2}, {1, -1});
    BufferData fraction = makeBuffer(ElementKind::Float, {1}, {1.5});
    EXPECT_EQ(referenceOpValueError("gather", {&x, &over}, {}).value_or(""),
              "index 4 (element 1 of the indices) is outside the gathered buffer (4 elements)");
    EXPECT_NE(referenceOpValueError("gather", {&x, &negative}, {}).value_or("").find("index -1"),
              std::string::npos);
    EXPECT_TRUE(referenceOpValueError("gather", {&x, &fraction}, {}));
}

TEST(ReferenceOps, HistogramMatchesALoop) {
    BufferData x = scrambled(ElementKind::Int, {50}, 6, 0);
    for (ElementKind out : {ElementKind::Uint, ElementKind::Float}) {
        ASSERT_FALSE(referenceOpValueError("histogram", {&x}, {{"bins", 8}}));
        BufferData h = run("histogram", {&x}, {{"bins", 8}}, out);
        ASSERT_EQ(h.shape, (Shape{{8}}));
        std::vector<double> want(8, 0);
        for (uint64_t i = 0; i < 50; ++i)
            want[static_cast<size_t>(x.get(i))] += 1;
        EXPECT_EQ(values(h), want);
        EXPECT_EQ(want[6] + want[7], 0); // empty bins stay 0
    }
}

TEST(ReferenceOps, HistogramRejectsValuesOutsideTheBins) {
    BufferData x = makeBuffer(ElementKind::Int, {4}, {0, 3, 9, 1});
    EXPECT_EQ(referenceOpValueError("histogram", {&x}, {{"bins", 4}}).value_or(""),
              "value 9 (element 2) is not a bin: bins are the whole numbers 0 to 3");
    BufferData negative = makeBuffer(ElementKind::Int, {2}, {0, -2});
    EXPECT_TRUE(referenceOpValueError("histogram", {&negative}, {{"bins", 4}}));
    EXPECT_EQ(shapeError("histogram", {Shape{{4}}}, {{"bins", 0}}),
              "parameter 'bins' must be a positive integer");
    EXPECT_FALSE(referenceOpShape("histogram", {Shape{{4}}}, {}).ok()); // needs bins
}

// The algorithms track's ops against plain loops written out here.

TEST(ReferenceOps, SegmentedScanRestartsAtEveryFlag) {
    BufferData x = makeBuffer(ElementKind::Int, {8}, {3, 1, -7, 0, 4, 1, 6, 3});
    BufferData flags = makeBuffer(ElementKind::Uint, {8}, {1, 0, 0, 1, 0, 1, 1, 0});
    EXPECT_EQ(values(run("segmented_scan", {&x, &flags}, {}, ElementKind::Int)),
              (V{3, 4, -3, 0, 4, 1, 6, 9}));
    BufferData noHead = makeBuffer(ElementKind::Uint, {8}, {0, 0, 0, 0, 0, 0, 0, 0});
    EXPECT_EQ(values(run("segmented_scan", {&x, &noHead}, {}, ElementKind::Int)),
              values(run("inclusive_scan", {&x}, {}, ElementKind::Int)));
    EXPECT_EQ(shapeError("segmented_scan", {Shape{{8}}, Shape{{7}}}),
              "segmented_scan: the arguments have different sizes ([8] and [7])");
}

TEST(ReferenceOps, SortOrdersByValueKeepingSignsAndTheShape) {
    BufferData ints = makeBuffer(ElementKind::Int, {6}, {5, -3, 0, 5, -8, 2});
    EXPECT_EQ(values(run("sort", {&ints}, {}, ElementKind::Int)), (V{-8, -3, 0, 2, 5, 5}));
    // Above 2^31 a uint is still larger, not negative.
    BufferData uints = makeBuffer(ElementKind::Uint, {4}, {4000000000.0, 7, 2147483648.0, 0});
    EXPECT_EQ(values(run("sort", {&uints}, {}, ElementKind::Uint)),
              (V{0, 7, 2147483648.0, 4000000000.0}));
    BufferData m = scrambled(ElementKind::Float, {3, 4}, 7, -3);
    BufferData sorted = run("sort", {&m});
    EXPECT_EQ(sorted.shape, m.shape);
    std::vector<double> want = values(m);
    std::sort(want.begin(), want.end());
    EXPECT_EQ(values(sorted), want);
}

TEST(ReferenceOps, SoftmaxOfEachRowMatchesTheFormulaAndSurvivesLargeValues) {
    BufferData m = makeBuffer(ElementKind::Float, {2, 3}, {1, 2, 3, -1, -1, -1});
    std::vector<double> got = values(run("softmax", {&m}));
    double e1 = std::exp(1.0), e2 = std::exp(2.0), e3 = std::exp(3.0);
    std::vector<double> want{
        e1 / (e1 + e2 + e3), e2 / (e1 + e2 + e3), e3 / (e1 + e2 + e3), 1.0 / 3, 1.0 / 3, 1.0 / 3};
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], 1e-7) << i;
    // exp(1000) overflows even a double; the row's max taken out, the answer is exact.
    BufferData big = makeBuffer(ElementKind::Float, {1, 2}, {1000, 1000});
    EXPECT_EQ(values(run("softmax", {&big})), (V{0.5, 0.5}));
    BufferData row = makeBuffer(ElementKind::Float, {3}, {0, 0, 0}); // 1D: one row
    for (double v : values(run("softmax", {&row})))
        EXPECT_NEAR(v, 1.0 / 3, 1e-7);
}

// Two heads of 2 queries over 3 keys, d = 2: each output row is the softmax-weighted mean of
// its head's values, computed here from the formula with the scores written out.
TEST(ReferenceOps, AttentionWeighsEachHeadsValuesByTheSoftmaxOfItsScores) {
    BufferData q = makeBuffer(ElementKind::Float, {4, 2}, {1, 0, 0, 2, 1, 1, 0, 0});
    BufferData k = makeBuffer(ElementKind::Float, {6, 2}, {1, 0, 0, 1, 1, 1, 2, 0, 0, 0, 0, 2});
    BufferData v = makeBuffer(ElementKind::Float, {6, 2}, {1, 2, 3, 4, 5, 6, 0, 1, 1, 0, 2, 2});
    std::vector<double> got = values(run("attention", {&q, &k, &v}, {{"heads", 2}}));
    const double r = 1 / std::sqrt(2.0);
    // head 0 uses keys 0-2 and values 0-2; head 1 keys 3-5 and values 3-5.
    auto row = [&](std::vector<double> scores, std::vector<std::vector<double>> vals) {
        double sum = 0, a = 0, b = 0;
        for (size_t j = 0; j < scores.size(); ++j) {
            double p = std::exp(scores[j] * r);
            sum += p;
            a += p * vals[j][0];
            b += p * vals[j][1];
        }
        return std::vector<double>{a / sum, b / sum};
    };
    std::vector<std::vector<double>> v0{{1, 2}, {3, 4}, {5, 6}}, v1{{0, 1}, {1, 0}, {2, 2}};
    std::vector<double> want;
    for (auto part :
         {row({1, 0, 1}, v0), row({0, 2, 2}, v0), row({2, 0, 2}, v1), row({0, 0, 0}, v1)})
        want.insert(want.end(), part.begin(), part.end());
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], 1e-6) << i; // the output is float
    // Scores of 1000 would overflow exp even in double: the row's max is taken out first.
    BufferData bigQ = makeBuffer(ElementKind::Float, {1, 1}, {1000});
    BufferData bigK = makeBuffer(ElementKind::Float, {2, 1}, {1, 1});
    BufferData bigV = makeBuffer(ElementKind::Float, {2, 1}, {2, 4});
    EXPECT_EQ(values(run("attention", {&bigQ, &bigK, &bigV}, {{"heads", 1}})), (V{3}));
}

TEST(ReferenceOpShape, AttentionNeedsMatchingColumnsAndWholeHeads) {
    Shape q{{4, 8}}, k{{6, 8}};
    EXPECT_EQ(shapeError("attention", {q, k, k}, {{"heads", 3}}),
              "attention: q has 4 rows, not a multiple of 3 heads");
    EXPECT_EQ(shapeError("attention", {q, Shape{{6, 4}}, Shape{{6, 4}}}, {{"heads", 2}}),
              "attention: q [4, 8], k [6, 4] and v [6, 4] need the same number of columns (d)");
    EXPECT_EQ(shapeError("attention", {q, k, Shape{{8, 8}}}, {{"heads", 2}}),
              "attention: k [6, 8] and v [8, 8] need the same rows (one value per key)");
    EXPECT_EQ(shapeError("attention", {Shape{{8}}, k, k}, {{"heads", 1}}),
              "attention: q must be 2D [rows, d]");
    EXPECT_EQ(shapeError("attention", {q, k, k}, {{"heads", 0}}),
              "parameter 'heads' must be a positive integer");
}

TEST(ReferenceOps, LayerNormMatchesALoopWithScaleAndShift) {
    BufferData x = scrambled(ElementKind::Float, {3, 5}, 9, -4);
    BufferData gamma = makeBuffer(ElementKind::Float, {5}, {1, 2, 0.5, -1, 1});
    BufferData beta = makeBuffer(ElementKind::Float, {5}, {0, 1, -1, 0, 2});
    double eps = 1e-5;
    std::vector<double> got = values(run("layer_norm", {&x, &gamma, &beta}, {{"epsilon", eps}}));
    for (uint64_t r = 0; r < 3; ++r) {
        double mean = 0, sq = 0;
        for (uint64_t c = 0; c < 5; ++c)
            mean += x.get(r * 5 + c) / 5;
        for (uint64_t c = 0; c < 5; ++c)
            sq += (x.get(r * 5 + c) - mean) * (x.get(r * 5 + c) - mean) / 5;
        for (uint64_t c = 0; c < 5; ++c) {
            double want =
                (x.get(r * 5 + c) - mean) / std::sqrt(sq + eps) * gamma.get(c) + beta.get(c);
            EXPECT_NEAR(got[r * 5 + c], want, 1e-5) << r << "," << c;
        }
    }
    // A constant row has variance 0: every value becomes beta (epsilon keeps it finite).
    BufferData flat = makeBuffer(ElementKind::Float, {1, 5}, {7, 7, 7, 7, 7});
    EXPECT_EQ(values(run("layer_norm", {&flat, &gamma, &beta}, {{"epsilon", eps}})), values(beta));
    EXPECT_EQ(shapeError("layer_norm", {Shape{{3, 5}}, Shape{{4}}, Shape{{5}}}, {{"epsilon", eps}}),
              "layer_norm: gamma has 4 elements, x has 5 columns (one each)");
    EXPECT_EQ(shapeError("layer_norm", {Shape{{3, 5}}, Shape{{5}}, Shape{{5}}}, {{"epsilon", 0}}),
              "layer_norm: epsilon must be above 0");
}

TEST(ReferenceOps, StencilAveragesACellAndItsFourNeighboursWithZeroOutside) {
    BufferData one = makeBuffer(ElementKind::Float, {3, 3}, {0, 0, 0, 0, 5, 0, 0, 0, 0});
    EXPECT_EQ(values(run("stencil", {&one}, {{"steps", 1}})), (V{0, 1, 0, 1, 1, 1, 0, 1, 0}));
    // Two steps are one step twice (a loop over the grid, zero outside).
    BufferData x = scrambled(ElementKind::Float, {4, 6}, 7, -2);
    std::vector<double> v = values(x);
    for (int step = 0; step < 2; ++step) {
        std::vector<double> next(v.size());
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 6; ++c) {
                double s = v[r * 6 + c];
                if (r > 0) s += v[(r - 1) * 6 + c];
                if (r < 3) s += v[(r + 1) * 6 + c];
                if (c > 0) s += v[r * 6 + c - 1];
                if (c < 5) s += v[r * 6 + c + 1];
                next[r * 6 + c] = s / 5;
            }
        v = next;
    }
    std::vector<double> got = values(run("stencil", {&x}, {{"steps", 2}}));
    for (size_t i = 0; i < v.size(); ++i)
        EXPECT_NEAR(got[i], v[i], 1e-6) << i;
    EXPECT_EQ(shapeError("stencil", {Shape{{9}}}, {{"steps", 1}}),
              "stencil needs a 2D argument [rows, cols]");
    EXPECT_EQ(shapeError("stencil", {Shape{{3, 3}}}, {{"steps", 0}}),
              "parameter 'steps' must be a positive integer");
}

TEST(ReferenceOps, FloatOnlyOpsRefuseIntegerOutputs) {
    for (const char* op : {"softmax", "layer_norm", "stencil", "attention"})
        for (ElementKind type : {ElementKind::Int, ElementKind::Uint})
            EXPECT_EQ(referenceOpTypeError(op, type, "out").value_or(""),
                      std::string(op) +
                          " computes fractions: its output must be a float buffer, and 'out' is "
                          "declared " +
                          elementKindName(type));
    for (const char* op : {"sort", "segmented_scan", "add"})
        EXPECT_FALSE(referenceOpTypeError(op, ElementKind::Int, "out")) << op;
}

TEST(ReferenceOpShape, RowSumNeedsA2DArgument) {
    EXPECT_EQ(shapeError("row_sum", {Shape{{12}}}), "row_sum needs a 2D argument [rows, cols]");
}

TEST(ReferenceOpShape, ElementwiseOpsNeedEqualSizes) {
    EXPECT_EQ(shapeError("dot", {Shape{{3}}, Shape{{4}}}),
              "dot: the arguments have different sizes ([3] and [4])");
    EXPECT_EQ(shapeError("add", {Shape{{2, 2}}, Shape{{5}}}),
              "add: the arguments have different sizes ([2, 2] and [5])");
}

TEST(ReferenceOpShape, WindowAndBlockMustBePositiveIntegers) {
    EXPECT_EQ(shapeError("window_sum", {Shape{{8}}}, {{"window", 0}}),
              "parameter 'window' must be a positive integer");
    EXPECT_EQ(shapeError("window_sum", {Shape{{8}}}, {{"window", 1.5}}),
              "parameter 'window' must be a positive integer");
    EXPECT_EQ(shapeError("block_sum", {Shape{{8}}}, {{"block", -2}}),
              "parameter 'block' must be a positive integer");
}

TEST(ReferenceOpShape, EmptyArgumentsAreRejected) {
    EXPECT_EQ(shapeError("inclusive_scan", {Shape{{0}}}), "inclusive_scan: an argument is empty");
    EXPECT_EQ(shapeError("add_scalar", {Shape{}}, {{"scalar", 1}}),
              "add_scalar: an argument is empty");
}

// The arithmetic an op does, where it may bound a kernel: a multiply-add counts two; ops bound by
// memory count none.
TEST(ReferenceOpArithmetic, CountsTheProductsOfMatmulAttentionAndConvolution) {
    EXPECT_EQ(referenceOpArithmetic("matmul", {Shape{{4, 3}}, Shape{{3, 5}}}, {}), 2.0 * 4 * 3 * 5);
    // 2 heads of 6 queries and 10 keys, d = 8: two products of 6 x 10 x 8 per head.
    EXPECT_EQ(referenceOpArithmetic("attention", {Shape{{12, 8}}, Shape{{20, 8}}, Shape{{20, 8}}},
                                    {{"heads", 2}}),
              2 * 4.0 * 6 * 10 * 8);
    EXPECT_EQ(referenceOpArithmetic("conv1d", {Shape{{100}}, Shape{{5}}}, {}), 2.0 * 100 * 5);
    EXPECT_EQ(referenceOpArithmetic("inclusive_scan", {Shape{{100}}}, {}), 0);
    EXPECT_EQ(referenceOpArithmetic("no_such_op", {Shape{{100}}}, {}), 0);
}

} // namespace
} // namespace vkp
