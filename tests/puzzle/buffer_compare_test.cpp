// compareBuffers: exact integers, float tolerance (absolute near zero, relative for large values),
// NaN, the capped mismatch list, and size differences.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "puzzle/buffer_compare.h"

namespace vkp {
namespace {

BufferData buffer(ElementKind type, const std::vector<double>& values) {
    BufferData b = BufferData::zeros(type, Shape{{values.size()}});
    for (size_t i = 0; i < values.size(); ++i)
        b.set(i, values[i]);
    return b;
}

TEST(BufferCompare, EqualBuffersPass) {
    BufferData e = buffer(ElementKind::Float, {1, 2, 3});
    BufferComparison v = compareBuffers(e, e, 1e-4);
    EXPECT_TRUE(v.pass);
    EXPECT_EQ(v.mismatchCount, 0u);
    EXPECT_TRUE(v.mismatches.empty());
    EXPECT_EQ(v.tolerance, 1e-4);
}

TEST(BufferCompare, IntegersCompareExactlyAndIgnoreTheTolerance) {
    for (ElementKind t : {ElementKind::Int, ElementKind::Uint}) {
        BufferComparison v = compareBuffers(buffer(t, {1, 5}), buffer(t, {2, 5}), 10.0);
        EXPECT_FALSE(v.pass) << elementKindName(t);
        EXPECT_EQ(v.mismatchCount, 1u);
        EXPECT_EQ(v.tolerance, 0.0);
        ASSERT_EQ(v.mismatches.size(), 1u);
        EXPECT_EQ(v.mismatches[0].index, 0u);
        EXPECT_EQ(v.mismatches[0].expected, 1.0);
        EXPECT_EQ(v.mismatches[0].actual, 2.0);
    }
}

TEST(BufferCompare, MismatchesReportSignedIntegers) {
    BufferComparison v =
        compareBuffers(buffer(ElementKind::Int, {-3}), buffer(ElementKind::Int, {3}), 0);
    ASSERT_EQ(v.mismatches.size(), 1u);
    EXPECT_EQ(v.mismatches[0].expected, -3.0);
    EXPECT_EQ(v.mismatches[0].actual, 3.0);
}

TEST(BufferCompare, FloatsWithinTheAbsoluteTolerancePass) {
    // Near zero the tolerance is absolute: |got - want| <= tol.
    BufferData e = buffer(ElementKind::Float, {0, 1, -0.5});
    EXPECT_TRUE(
        compareBuffers(e, buffer(ElementKind::Float, {0.0009, 1.0009, -0.5009}), 1e-3).pass);
    BufferComparison v = compareBuffers(e, buffer(ElementKind::Float, {0.0011, 1.0, -0.5}), 1e-3);
    EXPECT_FALSE(v.pass);
    EXPECT_EQ(v.mismatchCount, 1u);
    EXPECT_EQ(v.mismatches.at(0).index, 0u);
}

// The largest error, as the tolerance measures it, is kept for passing outputs too: an author
// sees how much room a solution leaves.
TEST(BufferCompare, TheWorstErrorIsTheRelativeOneTheToleranceBounds) {
    BufferData e = buffer(ElementKind::Float, {0, 100, -0.5, 8});
    BufferComparison v =
        compareBuffers(e, buffer(ElementKind::Float, {0.0002, 100.05, -0.5, 8}), 1e-3);
    EXPECT_TRUE(v.pass);
    EXPECT_NEAR(v.worstError, 5e-4, 1e-6) << "0.05 of 100, against 0.0002 of at least 1";
    EXPECT_EQ(v.worstIndex, 1u);
    EXPECT_EQ(compareBuffers(e, e, 1e-3).worstError, 0.0);
    BufferData ints = buffer(ElementKind::Int, {1, 2});
    EXPECT_EQ(compareBuffers(ints, buffer(ElementKind::Int, {1, 3}), 0.5).worstError, 0.0)
        << "integers compare exactly: no error to speak of";
}

TEST(BufferCompare, FloatsJustOutsideTheToleranceFail) {
    BufferData e = buffer(ElementKind::Float, {2});
    EXPECT_TRUE(
        compareBuffers(e, buffer(ElementKind::Float, {2.0 + 0.0999}), 0.05).pass); // 0.05 * 2
    EXPECT_FALSE(compareBuffers(e, buffer(ElementKind::Float, {2.0 + 0.1001}), 0.05).pass);
    EXPECT_FALSE(compareBuffers(e, buffer(ElementKind::Float, {2.0 - 0.1001}), 0.05).pass);
}

TEST(BufferCompare, ToleranceIsRelativeForLargeValues) {
    // want = 1e6, tol = 1e-4: the allowed error is 1e-4 * 1e6 = 100, not 1e-4.
    BufferData e = buffer(ElementKind::Float, {1e6, -1e6});
    EXPECT_TRUE(
        compareBuffers(e, buffer(ElementKind::Float, {1e6 + 62.5, -1e6 - 62.5}), 1e-4).pass);
    BufferComparison v =
        compareBuffers(e, buffer(ElementKind::Float, {1e6 + 125, -1e6 - 125}), 1e-4);
    EXPECT_FALSE(v.pass);
    EXPECT_EQ(v.mismatchCount, 2u);
}

TEST(BufferCompare, ZeroToleranceMeansExactFloats) {
    BufferData e = buffer(ElementKind::Float, {1.5});
    EXPECT_TRUE(compareBuffers(e, buffer(ElementKind::Float, {1.5}), 0).pass);
    EXPECT_FALSE(compareBuffers(e, buffer(ElementKind::Float, {1.5000001}), 0).pass);
}

TEST(BufferCompare, NanNeverPasses) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    BufferData e = buffer(ElementKind::Float, {1});
    EXPECT_FALSE(compareBuffers(e, buffer(ElementKind::Float, {nan}), 1e9).pass);
    // Not even against an expected NaN with a huge tolerance, unless the bits are identical.
    BufferData en = buffer(ElementKind::Float, {nan});
    EXPECT_FALSE(compareBuffers(en, buffer(ElementKind::Float, {1}), 1e9).pass);
    BufferData other = buffer(ElementKind::Float, {0});
    other.words[0] = 0x7FC00001u; // a different NaN payload
    EXPECT_FALSE(compareBuffers(en, other, 1e9).pass);
}

TEST(BufferCompare, InfinitiesMatchThemselvesAndFiniteWantsRejectThem) {
    const double inf = std::numeric_limits<double>::infinity();
    BufferData e = buffer(ElementKind::Float, {inf});
    EXPECT_TRUE(compareBuffers(e, buffer(ElementKind::Float, {inf}), 1e-4).pass);
    // A kernel that overflows where a finite value is wanted fails.
    EXPECT_FALSE(
        compareBuffers(buffer(ElementKind::Float, {3e38}), buffer(ElementKind::Float, {inf}), 1e-4)
            .pass);
    EXPECT_FALSE(
        compareBuffers(buffer(ElementKind::Float, {1}), buffer(ElementKind::Float, {-inf}), 1e9)
            .pass);
}

TEST(BufferCompare, ExpectedInfinityRejectsOtherValues) {
    // BUG (src/puzzle/buffer_compare.cpp): when the expected value is +-inf, the allowed error
    // tol * max(1, |want|) is itself inf, so |got - want| <= inf holds for ANY finite got and even
    // for the opposite infinity: expected +inf passes against -inf, 0 or 3e38. Infinities should
    // only match bit-identical words (the exact-bits test above already handles that).
    const double inf = std::numeric_limits<double>::infinity();
    BufferData e = buffer(ElementKind::Float, {inf});
    EXPECT_FALSE(compareBuffers(e, buffer(ElementKind::Float, {-inf}), 1e-4).pass);
    EXPECT_FALSE(compareBuffers(e, buffer(ElementKind::Float, {3e38}), 1e-4).pass);
    EXPECT_FALSE(compareBuffers(e, buffer(ElementKind::Float, {0}), 1e-4).pass);
}

TEST(BufferCompare, MismatchListIsCappedButAllAreCounted) {
    const size_t n = kMaxMismatches * 3 + 5;
    std::vector<double> want(n), got(n);
    for (size_t i = 0; i < n; ++i) {
        want[i] = static_cast<double>(i);
        got[i] = static_cast<double>(i) + 1;
    }
    BufferComparison v =
        compareBuffers(buffer(ElementKind::Int, want), buffer(ElementKind::Int, got), 0);
    EXPECT_FALSE(v.pass);
    EXPECT_EQ(v.mismatchCount, n);
    ASSERT_EQ(v.mismatches.size(), kMaxMismatches);
    // The list holds the first ones, in order.
    for (size_t i = 0; i < kMaxMismatches; ++i)
        EXPECT_EQ(v.mismatches[i].index, i);
    EXPECT_EQ(v.mismatches.back().expected, static_cast<double>(kMaxMismatches - 1));
    EXPECT_EQ(v.mismatches.back().actual, static_cast<double>(kMaxMismatches));
}

TEST(BufferCompare, SizeDifferencesCountAsMismatches) {
    BufferData e = buffer(ElementKind::Uint, {1, 2, 3, 4});
    BufferComparison shorter = compareBuffers(e, buffer(ElementKind::Uint, {1, 2}), 0);
    EXPECT_FALSE(shorter.pass);
    EXPECT_EQ(shorter.mismatchCount, 2u);
    BufferComparison longer =
        compareBuffers(e, buffer(ElementKind::Uint, {1, 2, 3, 4, 5, 6, 7}), 0);
    EXPECT_FALSE(longer.pass);
    EXPECT_EQ(longer.mismatchCount, 3u);
    BufferComparison both = compareBuffers(e, buffer(ElementKind::Uint, {9, 2}), 0);
    EXPECT_EQ(both.mismatchCount, 3u); // one wrong value, two missing
    EXPECT_EQ(both.mismatches.size(), 1u);
}

} // namespace
} // namespace vkp
