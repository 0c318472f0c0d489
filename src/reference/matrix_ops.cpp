// Dense matrix ops beyond matmul: a matrix times a vector, and int8 values packed four to a word.
#include <cstdint>

#include "reference/op_families.h"

namespace vkp::reference {
namespace {

// y[r] = sum over c of m[r, c] * x[c], in double (an int output wraps once, when it is stored).
void matvec(const std::vector<const BufferData*>& args, const OpParams&, BufferData& out) {
    const BufferData &m = *args[0], &x = *args[1];
    uint64_t rows = m.shape.rows(), cols = m.shape.cols();
    for (uint64_t r = 0; r < rows; ++r) {
        double s = 0;
        for (uint64_t c = 0; c < cols; ++c)
            s += m.get(r * cols + c) * x.get(c);
        out.set(r, s);
    }
}

Result<Shape> matvecShape(const std::vector<Shape>& a, const OpParams&) {
    if (a[0].dims.size() != 2) return shapeError("matvec: m must be 2D [rows, cols]");
    if (a[1].count() != a[0].cols())
        return shapeError("matvec: x has " + std::to_string(a[1].count()) + " elements, m " +
                          a[0].str() + " has " + std::to_string(a[0].cols()) +
                          " columns (one each)");
    return Shape{{a[0].rows()}};
}

double matvecArithmetic(const std::vector<Shape>& a, const OpParams&) {
    return 2.0 * a[0].count();
}

// The signed 8-bit value k of a row of packed words: word k / 4, byte k % 4 (byte 0 the lowest).
int32_t byteOf(const BufferData& b, uint64_t row, uint64_t words, uint64_t k) {
    uint32_t word = b.words[row * words + k / 4];
    return static_cast<int8_t>(static_cast<uint8_t>(word >> (8 * (k % 4))));
}

// out[i, j] = sum over k of a8[i, k] * bt8[j, k]: bt holds b's columns as rows; the sum wraps as
// a 32-bit accumulator does.
void matmulI8(const std::vector<const BufferData*>& args, const OpParams&, BufferData& out) {
    const BufferData &a = *args[0], &bt = *args[1];
    uint64_t n = a.shape.rows(), m = bt.shape.rows(), words = a.shape.cols();
    for (uint64_t i = 0; i < n; ++i)
        for (uint64_t j = 0; j < m; ++j) {
            uint32_t s = 0;
            for (uint64_t k = 0; k < 4 * words; ++k)
                s += static_cast<uint32_t>(byteOf(a, i, words, k) * byteOf(bt, j, words, k));
            out.words[i * m + j] = out.type == ElementKind::Float
                                       ? toWord(ElementKind::Float, static_cast<int32_t>(s))
                                       : s;
        }
}

Result<Shape> matmulI8Shape(const std::vector<Shape>& a, const OpParams&) {
    if (a[0].dims.size() != 2 || a[1].dims.size() != 2)
        return shapeError("matmul_i8 needs two 2D arguments: a [n, words] and bt [m, words]");
    if (a[0].cols() != a[1].cols())
        return shapeError("matmul_i8: a " + a[0].str() + " and bt " + a[1].str() +
                          " need the same words per row (bt holds b's columns as rows)");
    return Shape{{a[0].rows(), a[1].rows()}};
}

std::optional<std::string> checkPackedWords(const std::vector<const BufferData*>& a,
                                            const OpParams&) {
    for (size_t arg = 0; arg < 2; ++arg)
        if (a[arg]->type != ElementKind::Uint)
            return std::string("matmul_i8: ") + (arg == 0 ? "a" : "bt") +
                   " must be a uint buffer (four 8-bit values to a word), not " +
                   elementKindName(a[arg]->type);
    return std::nullopt;
}

double matmulI8Arithmetic(const std::vector<Shape>& a, const OpParams&) {
    return 2.0 * a[0].rows() * a[1].rows() * 4.0 * a[0].cols();
}

} // namespace

std::vector<ReferenceOpInfo> matrixOps() {
    // clang-format off
    return {
        {"matvec", 2, {}, "[rows]: m[rows, cols] times the vector x[cols]",
         matvecShape, matvec, nullptr, false, matvecArithmetic},
        {"matmul_i8", 2, {}, "[n, m] = a[n, K] @ b[K, m], four signed 8-bit values to a uint word (byte 0 the lowest), b given transposed as bt[m, K], sums in 32 bits",
         matmulI8Shape, matmulI8, checkPackedWords, false, matmulI8Arithmetic},
    };
    // clang-format on
}

} // namespace vkp::reference
