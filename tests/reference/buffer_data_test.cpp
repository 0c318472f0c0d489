// 32-bit words as the GPU sees them: conversions, wrap-around and how values are printed.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "reference/buffer_data.h"

namespace vkp {
namespace {

TEST(BufferData, ElementKindNames) {
    EXPECT_STREQ(elementKindName(ElementKind::Float), "float");
    EXPECT_STREQ(elementKindName(ElementKind::Int), "int");
    EXPECT_STREQ(elementKindName(ElementKind::Uint), "uint");
}

TEST(BufferData, FloatWordsAreIeeeBitPatterns) {
    EXPECT_EQ(toWord(ElementKind::Float, 1.0), 0x3F800000u);
    EXPECT_EQ(toWord(ElementKind::Float, -2.0), 0xC0000000u);
    EXPECT_EQ(toWord(ElementKind::Float, 0.0), 0u);
    EXPECT_EQ(fromWord(ElementKind::Float, 0x3FC00000u), 1.5);
    for (double v : {0.0, 1.5, -3.25, 1e-3, 16777216.0, 3.0e38})
        EXPECT_EQ(fromWord(ElementKind::Float, toWord(ElementKind::Float, v)),
                  static_cast<float>(v))
            << v;
    // Doubles round to the nearest float.
    EXPECT_EQ(fromWord(ElementKind::Float, toWord(ElementKind::Float, 0.1)),
              static_cast<double>(0.1f));
}

TEST(BufferData, IntRoundTripsAndNegativesWrap) {
    for (double v : {0.0, 1.0, -1.0, -3.0, 2147483647.0, -2147483648.0})
        EXPECT_EQ(fromWord(ElementKind::Int, toWord(ElementKind::Int, v)), v) << v;
    EXPECT_EQ(toWord(ElementKind::Int, -1), 0xFFFFFFFFu);
    EXPECT_EQ(toWord(ElementKind::Int, -3), 0xFFFFFFFDu);
    EXPECT_EQ(toWord(ElementKind::Int, -2147483648.0), 0x80000000u);
    EXPECT_EQ(fromWord(ElementKind::Int, 0x80000000u), -2147483648.0);
    // Out-of-range values wrap modulo 2^32, as 32-bit GPU arithmetic does.
    EXPECT_EQ(fromWord(ElementKind::Int, toWord(ElementKind::Int, 2147483648.0)), -2147483648.0);
    EXPECT_EQ(toWord(ElementKind::Int, 4294967296.0 + 5), 5u);
}

TEST(BufferData, UintRoundTripsAndWraps) {
    for (double v : {0.0, 1.0, 4294967295.0, 2147483648.0})
        EXPECT_EQ(fromWord(ElementKind::Uint, toWord(ElementKind::Uint, v)), v) << v;
    EXPECT_EQ(toWord(ElementKind::Uint, -1), 4294967295u);
    EXPECT_EQ(toWord(ElementKind::Uint, 4294967296.0), 0u);
    EXPECT_EQ(fromWord(ElementKind::Uint, 0xFFFFFFFFu), 4294967295.0);
}

TEST(BufferData, IntegersTruncateTowardZero) {
    EXPECT_EQ(toWord(ElementKind::Int, 2.7), 2u);
    EXPECT_EQ(fromWord(ElementKind::Int, toWord(ElementKind::Int, -2.7)), -2.0);
    EXPECT_EQ(toWord(ElementKind::Uint, 9.99), 9u);
}

TEST(BufferData, ShapeCountStrRowsCols) {
    Shape s1{{6}};
    EXPECT_EQ(s1.count(), 6u);
    EXPECT_EQ(s1.rows(), 1u);
    EXPECT_EQ(s1.cols(), 6u);
    EXPECT_EQ(s1.str(), "[6]");
    Shape s2{{3, 4}};
    EXPECT_EQ(s2.count(), 12u);
    EXPECT_EQ(s2.rows(), 3u);
    EXPECT_EQ(s2.cols(), 4u);
    EXPECT_EQ(s2.str(), "[3, 4]");
    EXPECT_EQ(Shape{}.count(), 0u);
    EXPECT_EQ(Shape{}.str(), "[]");
    EXPECT_NE(s2, (Shape{{4, 3}}));
}

TEST(BufferData, ZerosSetAndGet) {
    BufferData b = BufferData::zeros(ElementKind::Int, Shape{{2, 3}});
    ASSERT_EQ(b.words.size(), 6u);
    for (uint32_t w : b.words)
        EXPECT_EQ(w, 0u);
    b.set(4, -7);
    EXPECT_EQ(b.get(4), -7.0);
    EXPECT_EQ(b.words[4], 0xFFFFFFF9u);
    BufferData f = BufferData::zeros(ElementKind::Float, Shape{{2}});
    EXPECT_EQ(f.get(0), 0.0);
    f.set(1, 2.5);
    EXPECT_EQ(f.words[1], 0x40200000u);
}

// Two floats that print alike at 6 digits are shown with as many more as it takes (a block sum of
// 2^24 + 16 against 2^24 read "expected 1.67772e+07, got 1.67772e+07"); equal ones keep 6.
TEST(BufferData, ExpectedAndGotAreWrittenWithDigitsEnoughToDiffer) {
    BufferData want = BufferData::zeros(ElementKind::Float, Shape{{3}});
    BufferData got = BufferData::zeros(ElementKind::Float, Shape{{3}});
    want.set(0, 16777232);
    got.set(0, 16777216);
    want.set(1, 1.0000001);
    got.set(1, 1.0);
    want.set(2, 2.5);
    got.set(2, 3.5);
    EXPECT_EQ(expectedGotText(want, got, 0), "expected 16777232, got 16777216");
    EXPECT_EQ(expectedGotText(want, got, 1), "expected 1.00000012, got 1");
    EXPECT_EQ(expectedGotText(want, got, 2), "expected 2.5, got 3.5");
    BufferData wantInt = BufferData::zeros(ElementKind::Int, Shape{{1}});
    BufferData gotInt = BufferData::zeros(ElementKind::Int, Shape{{1}});
    wantInt.set(0, 7);
    EXPECT_EQ(expectedGotText(wantInt, gotInt, 0), "expected 7, got 0");
}

TEST(BufferData, FormatReadsAsALearnerWritesNumbers) {
    BufferData i = BufferData::zeros(ElementKind::Int, Shape{{3}});
    i.set(0, 10);
    i.set(1, -3);
    i.set(2, -2147483648.0);
    EXPECT_EQ(i.format(0), "10");
    EXPECT_EQ(i.format(1), "-3");
    EXPECT_EQ(i.format(2), "-2147483648");
    BufferData u = BufferData::zeros(ElementKind::Uint, Shape{{1}});
    u.set(0, 4294967295.0);
    EXPECT_EQ(u.format(0), "4294967295");
    BufferData f = BufferData::zeros(ElementKind::Float, Shape{{6}});
    f.set(0, 1.5);
    f.set(1, 10);
    f.set(2, -3);
    f.set(3, std::numeric_limits<double>::quiet_NaN());
    f.set(4, std::numeric_limits<double>::infinity());
    f.set(5, -std::numeric_limits<double>::infinity());
    EXPECT_EQ(f.format(0), "1.5");
    EXPECT_EQ(f.format(1), "10");
    EXPECT_EQ(f.format(2), "-3");
    EXPECT_EQ(f.format(3), "nan");
    EXPECT_EQ(f.format(4), "inf");
    EXPECT_EQ(f.format(5), "-inf");
}

} // namespace
} // namespace vkp
