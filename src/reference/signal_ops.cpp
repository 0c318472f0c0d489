// Signals: a 2D convolution with a small filter, and the discrete Fourier transform.
#include <cmath>
#include <complex>
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
// X[k] = sum over j of x[j] * exp(-2 pi i j k / n), unscaled: an iterative radix-2 FFT in double
// (n log n work, so a benchmark's 2^24 elements take a moment, not hours), each twiddle taken from
// its own angle rather than by repeated multiplication, so its error stays near double's.
void fft(const std::vector<const BufferData*>& a, const OpParams&, BufferData& out) {
    const BufferData& x = *a[0];
    RowsOf shape(x.shape);
    uint64_t n = shape.cols / 2;
    std::vector<std::complex<double>> v(n), twiddle(n / 2);
    for (uint64_t k = 0; k < n / 2; ++k)
        twiddle[k] = std::polar(1.0, -2 * std::numbers::pi * double(k) / double(n));
    for (uint64_t r = 0; r < shape.rows; ++r) {
        uint64_t base = r * shape.cols;
        for (uint64_t j = 0, rev = 0; j < n; ++j) { // in bit-reversed order
            v[rev] = {x.get(base + 2 * j), x.get(base + 2 * j + 1)};
            for (uint64_t bit = n >> 1; bit && ((rev ^= bit) & bit) == 0; bit >>= 1) {
            }
        }
        for (uint64_t half = 1; half < n; half *= 2)
            for (uint64_t start = 0; start < n; start += 2 * half)
                for (uint64_t j = 0; j < half; ++j) {
                    std::complex<double> odd = v[start + half + j] * twiddle[j * (n / (2 * half))];
                    v[start + half + j] = v[start + j] - odd;
                    v[start + j] += odd;
                }
        for (uint64_t k = 0; k < n; ++k) {
            out.set(base + 2 * k, v[k].real());
            out.set(base + 2 * k + 1, v[k].imag());
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
