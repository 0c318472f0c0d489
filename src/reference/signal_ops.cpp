// Signals: a 2D convolution with a small filter, and the discrete Fourier transform.
#include <cmath>
#include <cstdint>
#include <numbers>

#include "reference/op_families.h"

namespace vkp::reference {
namespace {

// out[r, c] = sum over i < KH, j < KW of image[r + i - KH/2, c + j - KW/2] * filter[i, j], cells
// outside the image counting as 0.
void conv2d(const std::vector<const BufferData*>& a, const OpParams&, BufferData& out) {
    const BufferData &image = *a[0], &filter = *a[1];
    auto h = int64_t(image.shape.rows()), w = int64_t(image.shape.cols());
    auto kh = int64_t(filter.shape.rows()), kw = int64_t(filter.shape.cols());
    for (int64_t r = 0; r < h; ++r)
        for (int64_t c = 0; c < w; ++c) {
            double s = 0;
            for (int64_t i = 0; i < kh; ++i)
                for (int64_t j = 0; j < kw; ++j) {
                    int64_t y = r + i - kh / 2, x = c + j - kw / 2;
                    if (y >= 0 && y < h && x >= 0 && x < w)
                        s += image.get(uint64_t(y * w + x)) * filter.get(uint64_t(i * kw + j));
                }
            out.set(uint64_t(r * w + c), s);
        }
}

Result<Shape> conv2dShape(const std::vector<Shape>& a, const OpParams&) {
    if (a[0].dims.size() != 2 || a[1].dims.size() != 2)
        return shapeError("conv2d needs a 2D image [H, W] and a 2D filter [KH, KW]");
    if (a[1].rows() % 2 == 0 || a[1].cols() % 2 == 0)
        return shapeError("conv2d: the filter " + a[1].str() +
                          " needs an odd number of rows and of columns (it is centred on a cell)");
    return a[0];
}

double conv2dArithmetic(const std::vector<Shape>& a, const OpParams&) {
    return 2.0 * a[0].count() * a[1].count();
}

// Each row: n complex numbers (re, im interleaved), their forward DFT
// X[k] = sum over j of x[j] * exp(-2 pi i j k / n), unscaled, computed directly in double.
void fft(const std::vector<const BufferData*>& a, const OpParams&, BufferData& out) {
    const BufferData& x = *a[0];
    RowsOf shape(x.shape);
    uint64_t n = shape.cols / 2;
    for (uint64_t r = 0; r < shape.rows; ++r) {
        uint64_t base = r * shape.cols;
        for (uint64_t k = 0; k < n; ++k) {
            double re = 0, im = 0;
            for (uint64_t j = 0; j < n; ++j) {
                double angle = -2 * std::numbers::pi * double((j * k) % n) / double(n);
                double xr = x.get(base + 2 * j), xi = x.get(base + 2 * j + 1);
                re += xr * std::cos(angle) - xi * std::sin(angle);
                im += xr * std::sin(angle) + xi * std::cos(angle);
            }
            out.set(base + 2 * k, re);
            out.set(base + 2 * k + 1, im);
        }
    }
}

Result<Shape> fftShape(const std::vector<Shape>& a, const OpParams&) {
    uint64_t cols = RowsOf(a[0]).cols;
    if (cols % 2 != 0 || ((cols / 2) & (cols / 2 - 1)) != 0)
        return shapeError("fft: a row of " + std::to_string(cols) +
                          " floats is not n complex numbers (re, im) with n a power of two");
    return a[0];
}

double fftArithmetic(const std::vector<Shape>& a, const OpParams&) {
    RowsOf shape(a[0]);
    double n = double(shape.cols / 2);
    return 5.0 * double(shape.rows) * n * std::log2(std::max(n, 2.0)); // the usual 5 n log2 n
}

} // namespace

std::vector<ReferenceOpInfo> signalOps() {
    // clang-format off
    return {
        {"conv2d", 2, {}, "[H, W]: the image cross-correlated with an odd [KH, KW] filter centred on each cell, 0 outside",
         conv2dShape, conv2d, nullptr, false, conv2dArithmetic},
        {"fft", 1, {}, "each row: the forward DFT of n complex numbers stored (re, im), n a power of two",
         fftShape, fft, nullptr, true, fftArithmetic},
    };
    // clang-format on
}

} // namespace vkp::reference
