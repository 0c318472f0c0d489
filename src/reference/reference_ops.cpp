#include "reference/reference_ops.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "reference/op_families.h"

namespace vkp {

namespace reference {

Error shapeError(std::string message) {
    return Error{ErrorKind::PuzzleFile, std::move(message)};
}

Result<uint64_t> positiveParam(const OpParams& params, const char* name) {
    double v = params.at(name);
    if (v < 1 || v != std::floor(v))
        return shapeError(std::string("parameter '") + name + "' must be a positive integer");
    return static_cast<uint64_t>(v);
}

} // namespace reference

namespace {

using reference::positiveParam;
using reference::RowsOf;
using reference::shapeError;

// Integer results use uint32 arithmetic, which wraps exactly like the GPU for int and uint.
template <class T> T cast(double v) {
    if constexpr (std::is_same_v<T, double>)
        return v;
    else
        return toWord(ElementKind::Uint, v); // int bit patterns wrap the same way
}

// Argument views converted once to the computation's number type.
template <class T> std::vector<T> load(const BufferData& b) {
    std::vector<T> v(b.words.size());
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = cast<T>(b.get(i));
    return v;
}

template <class T> struct Compute {
    const std::vector<std::vector<T>>& x;
    const std::vector<Shape>& shapes;
    const OpParams& params;
    std::vector<T>& out;

    void addScalar() {
        T k = cast<T>(params.at("scalar"));
        for (size_t i = 0; i < out.size(); ++i)
            out[i] = x[0][i] + k;
    }
    void add() {
        for (size_t i = 0; i < out.size(); ++i)
            out[i] = x[0][i] + x[1][i];
    }
    void outerAdd() {
        size_t m = x[1].size();
        for (size_t i = 0; i < x[0].size(); ++i)
            for (size_t j = 0; j < m; ++j)
                out[i * m + j] = x[0][i] + x[1][j];
    }
    void windowSum() {
        auto w = static_cast<size_t>(params.at("window"));
        for (size_t i = 0; i < out.size(); ++i) {
            T s{};
            for (size_t j = 0; j < w && j <= i; ++j)
                s += x[0][i - j];
            out[i] = s;
        }
    }
    void dot() {
        T s{};
        for (size_t i = 0; i < x[0].size(); ++i)
            s += x[0][i] * x[1][i];
        out[0] = s;
    }
    void conv1d() {
        size_t n = x[0].size(), k = x[1].size();
        for (size_t i = 0; i < n; ++i) {
            T s{};
            for (size_t j = 0; j < k && i + j < n; ++j)
                s += x[0][i + j] * x[1][j];
            out[i] = s;
        }
    }
    void blockSum() {
        auto block = static_cast<size_t>(params.at("block"));
        for (size_t i = 0; i < x[0].size(); ++i)
            out[i / block] += x[0][i];
    }
    void sum() {
        for (const T& v : x[0])
            out[0] += v;
    }
    void rowSum() {
        uint64_t cols = shapes[0].cols();
        for (size_t i = 0; i < x[0].size(); ++i)
            out[i / cols] += x[0][i];
    }
    void matmul() {
        uint64_t n = shapes[0].rows(), k = shapes[0].cols(), m = shapes[1].cols();
        for (uint64_t i = 0; i < n; ++i)
            for (uint64_t j = 0; j < m; ++j) {
                T s{};
                for (uint64_t t = 0; t < k; ++t)
                    s += x[0][i * k + t] * x[1][t * m + j];
                out[i * m + j] = s;
            }
    }
    void scan(bool inclusive) {
        T s{};
        for (size_t i = 0; i < out.size(); ++i) {
            if (inclusive) s += x[0][i];
            out[i] = s;
            if (!inclusive) s += x[0][i];
        }
    }
    // A scan that restarts at every block: what a per-workgroup scan computes.
    void blockScan(bool inclusive) {
        auto block = static_cast<size_t>(params.at("block"));
        T s{};
        for (size_t i = 0; i < out.size(); ++i) {
            if (i % block == 0) s = T{};
            if (inclusive) s += x[0][i];
            out[i] = s;
            if (!inclusive) s += x[0][i];
        }
    }
    // Each block of `block` elements in reverse order; a last, shorter block is reversed on its
    // own (what a workgroup that mirrors its elements through shared memory writes).
    void blockReverse() {
        auto block = static_cast<size_t>(params.at("block"));
        size_t n = out.size();
        for (size_t start = 0; start < n; start += block) {
            size_t count = std::min(block, n - start);
            for (size_t j = 0; j < count; ++j)
                out[start + j] = x[0][start + count - 1 - j];
        }
    }
    void copy() {
        for (size_t i = 0; i < out.size(); ++i)
            out[i] = x[0][i];
    }
    void reverse() {
        size_t n = out.size();
        for (size_t i = 0; i < n; ++i)
            out[i] = x[0][n - 1 - i];
    }
    void transpose() {
        uint64_t rows = shapes[0].rows(), cols = shapes[0].cols();
        for (uint64_t r = 0; r < rows; ++r)
            for (uint64_t c = 0; c < cols; ++c)
                out[c * rows + r] = x[0][r * cols + c];
    }
    // Indices and bins were checked by checkIndices and checkBins: whole, in range.
    void gather() {
        for (size_t i = 0; i < out.size(); ++i)
            out[i] = x[0][static_cast<size_t>(x[1][i])];
    }
    void histogram() {
        for (T v : x[0])
            out[static_cast<size_t>(v)] += T{1};
    }
    // An inclusive scan that starts again at every element whose flag is not 0 (a new segment).
    void segmentedScan() {
        T s{};
        for (size_t i = 0; i < out.size(); ++i) {
            if (x[1][i] != T{}) s = T{};
            s += x[0][i];
            out[i] = s;
        }
    }
};

// The ops below compute in double from the buffers' own values: sort keeps a signed int signed
// (Compute<uint32_t> would order the bit patterns), and the float-only ones need fractions.

// A 2D buffer's rows, or a 1D buffer as one row.

void sortValues(const std::vector<const BufferData*>& args, const OpParams&, BufferData& out) {
    std::vector<double> v(args[0]->words.size());
    for (uint64_t i = 0; i < v.size(); ++i)
        v[i] = args[0]->get(i);
    std::sort(v.begin(), v.end());
    for (uint64_t i = 0; i < v.size(); ++i)
        out.set(i, v[i]);
}

// Each row: exp(x - the row's max) / the sum of them (the max taken out, as a stable kernel
// does; in double it changes nothing but overflow).
void softmax(const std::vector<const BufferData*>& args, const OpParams&, BufferData& out) {
    const BufferData& x = *args[0];
    RowsOf shape(x.shape);
    for (uint64_t r = 0; r < shape.rows; ++r) {
        uint64_t at = r * shape.cols;
        double most = x.get(at);
        for (uint64_t c = 1; c < shape.cols; ++c)
            most = std::max(most, x.get(at + c));
        double sum = 0;
        for (uint64_t c = 0; c < shape.cols; ++c)
            sum += std::exp(x.get(at + c) - most);
        for (uint64_t c = 0; c < shape.cols; ++c)
            out.set(at + c, std::exp(x.get(at + c) - most) / sum);
    }
}

// The 16-bit float nearest to v (IEEE binary16, ties to even), as a tensor core takes its
// inputs: 11 significant bits down to 2^-14, then steps of 2^-24; past 65504, infinity.
double nearestHalf(double v) {
    if (v == 0 || !std::isfinite(v)) return v;
    int e = 0;
    std::frexp(v, &e); // |v| = m * 2^e, m in [0.5, 1)
    double step = std::ldexp(1.0, std::max(e - 11, -24));
    double h = std::nearbyint(v / step) * step; // the default rounding: to nearest, ties to even
    return std::fabs(h) > 65504 ? std::copysign(INFINITY, v) : h;
}

// a @ b with every element of a and b first rounded to a 16-bit float, the products summed
// exactly (in double: a product of two halves has at most 22 significant bits).
void matmulHalf(const std::vector<const BufferData*>& args, const OpParams&, BufferData& out) {
    const BufferData &a = *args[0], &b = *args[1];
    uint64_t n = a.shape.rows(), k = a.shape.cols(), m = b.shape.cols();
    std::vector<double> ha(n * k), hb(k * m);
    for (uint64_t i = 0; i < ha.size(); ++i)
        ha[i] = nearestHalf(a.get(i));
    for (uint64_t i = 0; i < hb.size(); ++i)
        hb[i] = nearestHalf(b.get(i));
    for (uint64_t i = 0; i < n; ++i)
        for (uint64_t j = 0; j < m; ++j) {
            double s = 0;
            for (uint64_t t = 0; t < k; ++t)
                s += ha[i * k + t] * hb[t * m + j];
            out.set(i * m + j, s);
        }
}

// Per head h: row i of the output is softmax over j of (q[h, i] . k[h, j]) / sqrt(d), times v:
// sum over j of p[j] * v[h, j]. Heads are consecutive blocks of rows (q: heads x sq rows, k and
// v: heads x sk rows, all d columns). Causal: query i sees keys j <= i only.
template <bool causal>
void attention(const std::vector<const BufferData*>& args, const OpParams& params,
               BufferData& out) {
    std::vector<double> q = load<double>(*args[0]), k = load<double>(*args[1]),
                        v = load<double>(*args[2]);
    auto heads = static_cast<uint64_t>(params.at("heads"));
    uint64_t d = args[0]->shape.cols(), sq = args[0]->shape.rows() / heads,
             sk = args[1]->shape.rows() / heads;
    double scale = 1 / std::sqrt(double(d));
    std::vector<double> s(sk), o(d);
    for (uint64_t h = 0; h < heads; ++h)
        for (uint64_t i = 0; i < sq; ++i) {
            const double* qi = &q[(h * sq + i) * d];
            double most = -INFINITY;
            uint64_t seen = causal ? std::min(sk, i + 1) : sk;
            for (uint64_t j = 0; j < seen; ++j) {
                const double* kj = &k[(h * sk + j) * d];
                double dot = 0;
                for (uint64_t c = 0; c < d; ++c)
                    dot += qi[c] * kj[c];
                s[j] = dot * scale;
                most = std::max(most, s[j]);
            }
            double sum = 0;
            std::fill(o.begin(), o.end(), 0.0);
            for (uint64_t j = 0; j < seen; ++j) {
                double p = std::exp(s[j] - most);
                sum += p;
                const double* vj = &v[(h * sk + j) * d];
                for (uint64_t c = 0; c < d; ++c)
                    o[c] += p * vj[c];
            }
            for (uint64_t c = 0; c < d; ++c)
                out.set((h * sq + i) * d + c, o[c] / sum);
        }
}

// Each row normalised to mean 0 and variance 1 (the population variance, over cols), then
// scaled and shifted per column: (x - mean) / sqrt(var + epsilon) * gamma[c] + beta[c].
void layerNorm(const std::vector<const BufferData*>& args, const OpParams& params,
               BufferData& out) {
    const BufferData &x = *args[0], &gamma = *args[1], &beta = *args[2];
    RowsOf shape(x.shape);
    double epsilon = params.at("epsilon");
    for (uint64_t r = 0; r < shape.rows; ++r) {
        uint64_t at = r * shape.cols;
        double mean = 0, var = 0;
        for (uint64_t c = 0; c < shape.cols; ++c)
            mean += x.get(at + c);
        mean /= static_cast<double>(shape.cols);
        for (uint64_t c = 0; c < shape.cols; ++c)
            var += (x.get(at + c) - mean) * (x.get(at + c) - mean);
        var /= static_cast<double>(shape.cols);
        double scale = 1 / std::sqrt(var + epsilon);
        for (uint64_t c = 0; c < shape.cols; ++c)
            out.set(at + c, (x.get(at + c) - mean) * scale * gamma.get(c) + beta.get(c));
    }
}

// `steps` rounds of a 5-point blur: each cell becomes the mean of itself and its four
// neighbours, a neighbour outside the grid counting as 0.
void stencil(const std::vector<const BufferData*>& args, const OpParams& params, BufferData& out) {
    const BufferData& x = *args[0];
    uint64_t rows = x.shape.rows(), cols = x.shape.cols();
    std::vector<double> v(x.words.size()), next(v.size());
    for (uint64_t i = 0; i < v.size(); ++i)
        v[i] = x.get(i);
    auto at = [&](uint64_t r, uint64_t c, int dr, int dc) {
        if ((dr < 0 && r == 0) || (dr > 0 && r + 1 == rows) || (dc < 0 && c == 0) ||
            (dc > 0 && c + 1 == cols))
            return 0.0;
        return v[(r + dr) * cols + c + dc];
    };
    for (auto step = static_cast<uint64_t>(params.at("steps")); step > 0; --step) {
        for (uint64_t r = 0; r < rows; ++r)
            for (uint64_t c = 0; c < cols; ++c)
                next[r * cols + c] = (at(r, c, 0, 0) + at(r, c, -1, 0) + at(r, c, 1, 0) +
                                      at(r, c, 0, -1) + at(r, c, 0, 1)) /
                                     5;
        v.swap(next);
    }
    for (uint64_t i = 0; i < v.size(); ++i)
        out.set(i, v[i]);
}

// Runs `body` (one of Compute's members) in the number type T on loaded copies of the arguments.
template <class T, class Body>
void computeIn(Body body, const std::vector<const BufferData*>& args, const OpParams& params,
               BufferData& out) {
    std::vector<std::vector<T>> x;
    std::vector<Shape> shapes;
    for (const BufferData* a : args) {
        x.push_back(load<T>(*a));
        shapes.push_back(a->shape);
    }
    std::vector<T> result(out.words.size(), T{});
    Compute<T> c{x, shapes, params, result};
    body(c);
    for (size_t i = 0; i < result.size(); ++i) {
        if constexpr (std::is_same_v<T, double>)
            out.set(i, result[i]);
        else
            out.words[i] = result[i]; // already the wrapped 32-bit pattern
    }
}

template <class Body>
void computeByType(const std::vector<const BufferData*>& args, const OpParams& params,
                   BufferData& out) {
    if (out.type == ElementKind::Float)
        computeIn<double>(Body{}, args, params, out);
    else
        computeIn<uint32_t>(Body{}, args, params, out);
}

// A table entry's compute function from a generic lambda that calls one member of Compute<T>.
template <class Body> constexpr OpComputeFn computing(Body) {
    return &computeByType<Body>;
}

Result<Shape> checkSame(const std::vector<Shape>& a, const char* op) {
    if (a[0].count() != a[1].count())
        return shapeError(std::string(op) + ": the arguments have different sizes (" + a[0].str() +
                          " and " + a[1].str() + ")");
    return a[0];
}

// Output shape rules, one per kind of op.
Result<Shape> likeFirst(const std::vector<Shape>& a, const OpParams&) {
    return a[0];
}
Result<Shape> sameSizeForAdd(const std::vector<Shape>& a, const OpParams&) {
    return checkSame(a, "add");
}
Result<Shape> outerTable(const std::vector<Shape>& a, const OpParams&) {
    return Shape{{a[0].count(), a[1].count()}};
}
Result<Shape> likeFirstPerBlock(const std::vector<Shape>& a, const OpParams& params) {
    auto b = positiveParam(params, "block");
    if (!b) return b.error();
    return a[0];
}
Result<Shape> likeFirstPerWindow(const std::vector<Shape>& a, const OpParams& params) {
    auto w = positiveParam(params, "window");
    if (!w) return w.error();
    return a[0];
}
Result<Shape> oneDotProduct(const std::vector<Shape>& a, const OpParams&) {
    auto s = checkSame(a, "dot");
    if (!s) return s;
    return Shape{{1}};
}
Result<Shape> flatFirst(const std::vector<Shape>& a, const OpParams&) {
    return Shape{{a[0].count()}};
}
Result<Shape> onePerBlock(const std::vector<Shape>& a, const OpParams& params) {
    auto b = positiveParam(params, "block");
    if (!b) return b.error();
    return Shape{{(a[0].count() + *b - 1) / *b}};
}
Result<Shape> one(const std::vector<Shape>&, const OpParams&) {
    return Shape{{1}};
}
Result<Shape> onePerRow(const std::vector<Shape>& a, const OpParams&) {
    if (a[0].dims.size() != 2) return shapeError("row_sum needs a 2D argument [rows, cols]");
    return Shape{{a[0].rows()}};
}
Result<Shape> matrixProduct(const std::vector<Shape>& a, const OpParams&) {
    if (a[0].dims.size() != 2 || a[1].dims.size() != 2)
        return shapeError("matmul needs two 2D arguments");
    if (a[0].cols() != a[1].rows())
        return shapeError("matmul: " + a[0].str() + " @ " + a[1].str() +
                          " do not fit (inner sizes differ)");
    return Shape{{a[0].rows(), a[1].cols()}};
}

Result<Shape> sameSizeForSegments(const std::vector<Shape>& a, const OpParams&) {
    return checkSame(a, "segmented_scan");
}
// layer_norm's gamma and beta: one per column of x.
Result<Shape> normalisedRows(const std::vector<Shape>& a, const OpParams& params) {
    uint64_t cols = RowsOf(a[0]).cols;
    for (size_t i = 1; i < 3; ++i)
        if (a[i].count() != cols)
            return shapeError(std::string("layer_norm: ") + (i == 1 ? "gamma" : "beta") + " has " +
                              std::to_string(a[i].count()) + " elements, x has " +
                              std::to_string(cols) + " columns (one each)");
    if (!(params.at("epsilon") > 0)) return shapeError("layer_norm: epsilon must be above 0");
    return a[0];
}
// attention's q, k and v: 2D with the same columns, k and v alike, rows a multiple of heads.
Result<Shape> attendedRows(const std::vector<Shape>& a, const OpParams& params) {
    auto heads = positiveParam(params, "heads");
    if (!heads) return heads.error();
    const char* names[] = {"q", "k", "v"};
    for (size_t i = 0; i < 3; ++i) {
        if (a[i].dims.size() != 2)
            return shapeError(std::string("attention: ") + names[i] + " must be 2D [rows, d]");
        if (a[i].rows() % *heads != 0)
            return shapeError(std::string("attention: ") + names[i] + " has " +
                              std::to_string(a[i].rows()) + " rows, not a multiple of " +
                              std::to_string(*heads) + " heads");
    }
    if (a[1].cols() != a[0].cols() || a[2].cols() != a[0].cols())
        return shapeError("attention: q " + a[0].str() + ", k " + a[1].str() + " and v " +
                          a[2].str() + " need the same number of columns (d)");
    if (a[1].rows() != a[2].rows())
        return shapeError("attention: k " + a[1].str() + " and v " + a[2].str() +
                          " need the same rows (one value per key)");
    return a[0];
}
// attention_causal's: attention's, with no more queries than keys (every query sees key 0).
Result<Shape> causalRows(const std::vector<Shape>& a, const OpParams& params) {
    auto shape = attendedRows(a, params);
    if (shape && a[0].rows() > a[1].rows())
        return shapeError("attention_causal: q " + a[0].str() + " has more rows than k " +
                          a[1].str() + " (each query i sees keys 0 .. i)");
    return shape;
}
// Arithmetic: a multiply-add counts two operations.
double matmulArithmetic(const std::vector<Shape>& a, const OpParams&) {
    return 2.0 * a[0].rows() * a[0].cols() * a[1].cols(); // [n, k] @ [k, m]
}
// Per head, the scores q k^T and their weighted sum of v: two products of sq x sk x d.
double attentionArithmetic(const std::vector<Shape>& a, const OpParams& params) {
    double heads = params.at("heads");
    return 4.0 * a[0].rows() * (a[1].rows() / heads) * a[0].cols();
}
// Causal: query i of sq sees i + 1 of the sk keys, about half the scores for sq = sk.
double causalArithmetic(const std::vector<Shape>& a, const OpParams& params) {
    double heads = params.at("heads"), sq = a[0].rows() / heads;
    return 4.0 * heads * (sq * (sq + 1) / 2) * a[0].cols();
}
double convArithmetic(const std::vector<Shape>& a, const OpParams&) {
    return 2.0 * a[0].count() * a[1].count();
}
Result<Shape> blurredGrid(const std::vector<Shape>& a, const OpParams& params) {
    if (a[0].dims.size() != 2) return shapeError("stencil needs a 2D argument [rows, cols]");
    auto steps = positiveParam(params, "steps");
    if (!steps) return steps.error();
    if (*steps > 64) return shapeError("stencil: at most 64 steps");
    return a[0];
}
Result<Shape> transposed(const std::vector<Shape>& a, const OpParams&) {
    if (a[0].dims.size() != 2) return shapeError("transpose needs a 2D argument [rows, cols]");
    return Shape{{a[0].cols(), a[0].rows()}};
}
Result<Shape> likeIndices(const std::vector<Shape>& a, const OpParams&) {
    return a[1];
}
constexpr uint64_t kMaxBins = 1u << 24;
Result<Shape> onePerBin(const std::vector<Shape>&, const OpParams& params) {
    auto bins = positiveParam(params, "bins");
    if (!bins) return bins.error();
    if (*bins > kMaxBins)
        return shapeError("histogram: " + std::to_string(*bins) + " bins; at most " +
                          std::to_string(kMaxBins));
    return Shape{{*bins}};
}

std::string valueText(const BufferData& b, uint64_t i) {
    return b.format(i);
}

// Element i of `b` as a whole number in [0, limit), or nothing.
std::optional<uint64_t> wholeBelow(const BufferData& b, uint64_t i, uint64_t limit) {
    double v = b.get(i);
    if (!(v >= 0) || v >= static_cast<double>(limit) || std::floor(v) != v) return std::nullopt;
    return static_cast<uint64_t>(v);
}

std::optional<std::string> checkIndices(const std::vector<const BufferData*>& a, const OpParams&) {
    const BufferData& x = *a[0];
    const BufferData& idx = *a[1];
    for (uint64_t i = 0; i < idx.words.size(); ++i)
        if (!wholeBelow(idx, i, x.words.size()))
            return "index " + valueText(idx, i) + " (element " + std::to_string(i) +
                   " of the indices) is outside the gathered buffer (" +
                   std::to_string(x.words.size()) + " elements)";
    return std::nullopt;
}

std::optional<std::string> checkBins(const std::vector<const BufferData*>& a,
                                     const OpParams& params) {
    const BufferData& x = *a[0];
    auto bins = static_cast<uint64_t>(params.at("bins"));
    for (uint64_t i = 0; i < x.words.size(); ++i)
        if (!wholeBelow(x, i, bins))
            return "value " + valueText(x, i) + " (element " + std::to_string(i) +
                   ") is not a bin: bins are the whole numbers 0 to " + std::to_string(bins - 1);
    return std::nullopt;
}

} // namespace

const std::vector<ReferenceOpInfo>& referenceOps() {
    // One op per entry reads better than one field per line.
    // clang-format off
    static const std::vector<ReferenceOpInfo> ops = [] {
        std::vector<ReferenceOpInfo> all = {
        {"add_scalar", 1, {"scalar"}, "x[i] + scalar",
         likeFirst, computing([](auto& c) { c.addScalar(); })},
        {"add", 2, {}, "x[i] + y[i]",
         sameSizeForAdd, computing([](auto& c) { c.add(); })},
        {"outer_add", 2, {}, "[n, m]: col[i] + row[j]",
         outerTable, computing([](auto& c) { c.outerAdd(); })},
        {"window_sum", 1, {"window"}, "x[i-window+1] + ... + x[i], missing terms 0",
         likeFirstPerWindow, computing([](auto& c) { c.windowSum(); })},
        {"dot", 2, {}, "[1]: sum of x[i] * y[i]",
         oneDotProduct, computing([](auto& c) { c.dot(); })},
        {"conv1d", 2, {}, "sum over j of x[i+j] * k[j], for i+j < len(x)",
         flatFirst, computing([](auto& c) { c.conv1d(); }), nullptr, false, convArithmetic},
        {"block_sum", 1, {"block"}, "sum of each block of `block` consecutive elements",
         onePerBlock, computing([](auto& c) { c.blockSum(); })},
        {"sum", 1, {}, "[1]: the sum of every element (a total that follows N, where block_sum's block would not)",
         one, computing([](auto& c) { c.sum(); })},
        {"row_sum", 1, {}, "[rows]: sum of each row",
         onePerRow, computing([](auto& c) { c.rowSum(); })},
        {"matmul", 2, {}, "[n, m] = a[n, k] @ b[k, m]",
         matrixProduct, computing([](auto& c) { c.matmul(); }), nullptr, false,
         matmulArithmetic},
        {"matmul_f16", 2, {}, "[n, m] = a[n, k] @ b[k, m], every element of a and b first rounded to the nearest 16-bit float",
         matrixProduct, matmulHalf, nullptr, true, matmulArithmetic},
        {"inclusive_scan", 1, {}, "x[0] + ... + x[i]",
         likeFirst, computing([](auto& c) { c.scan(true); })},
        {"block_inclusive_scan", 1, {"block"}, "an inclusive scan that restarts every `block` elements",
         likeFirstPerBlock, computing([](auto& c) { c.blockScan(true); })},
        {"block_exclusive_scan", 1, {"block"}, "an exclusive scan that restarts every `block` elements",
         likeFirstPerBlock, computing([](auto& c) { c.blockScan(false); })},
        {"exclusive_scan", 1, {}, "x[0] + ... + x[i-1], first 0",
         likeFirst, computing([](auto& c) { c.scan(false); })},
        {"block_reverse", 1, {"block"},
         "each block of `block` consecutive elements in reverse order (a shorter last block too)",
         likeFirstPerBlock, computing([](auto& c) { c.blockReverse(); })},
        {"copy", 1, {}, "x[i]",
         likeFirst, computing([](auto& c) { c.copy(); })},
        {"reverse", 1, {}, "x[n - 1 - i]",
         likeFirst, computing([](auto& c) { c.reverse(); })},
        {"transpose", 1, {}, "[cols, rows]: m[c][r] of a 2D m[rows, cols]",
         transposed, computing([](auto& c) { c.transpose(); })},
        {"gather", 2, {}, "shaped like idx: x[idx[i]]; an index outside x is an error",
         likeIndices, computing([](auto& c) { c.gather(); }), checkIndices},
        {"histogram", 1, {"bins"},
         "[bins]: how many x[i] equal each bin 0 .. bins-1; any other value is an error",
         onePerBin, computing([](auto& c) { c.histogram(); }), checkBins},
        {"segmented_scan", 2, {}, "an inclusive scan of x that starts again where flags[i] != 0",
         sameSizeForSegments, computing([](auto& c) { c.segmentedScan(); })},
        {"sort", 1, {}, "x in ascending order (a 2D x as one row-major run)",
         likeFirst, sortValues},
        {"softmax", 1, {}, "each row: exp(x - max) / sum of exp(x - max) (a 1D x is one row)",
         likeFirst, softmax, nullptr, true},
        {"layer_norm", 3, {"epsilon"},
         "each row of x: (x - mean) / sqrt(variance + epsilon) * gamma[col] + beta[col]",
         normalisedRows, layerNorm, nullptr, true},
        {"attention", 3, {"heads"},
         "per head: softmax(q k^T / sqrt(d)) v; q [heads * sq, d], k and v [heads * sk, d]",
         attendedRows, attention<false>, nullptr, true, attentionArithmetic},
        {"attention_causal", 3, {"heads"},
         "attention where query i of a head sees keys j <= i only (sq <= sk)",
         causalRows, attention<true>, nullptr, true, causalArithmetic},
        {"stencil", 1, {"steps"},
         "`steps` rounds of a 5-point blur: the mean of a cell and its 4 neighbours (0 outside)",
         blurredGrid, stencil, nullptr, true},
        };
        for (auto family : {reference::matrixOps, reference::sparseOps, reference::signalOps,
                            reference::orderOps})
            for (auto& op : family())
                all.push_back(std::move(op));
        return all;
    }();
    // clang-format on
    return ops;
}

const ReferenceOpInfo* findReferenceOp(const std::string& name) {
    for (const auto& op : referenceOps())
        if (name == op.name) return &op;
    return nullptr;
}

double referenceOpArithmetic(const std::string& op, const std::vector<Shape>& args,
                             const OpParams& params) {
    const ReferenceOpInfo* info = findReferenceOp(op);
    return info && info->arithmetic ? info->arithmetic(args, params) : 0;
}

Result<Shape> referenceOpShape(const std::string& op, const std::vector<Shape>& a,
                               const OpParams& params) {
    const ReferenceOpInfo* info = findReferenceOp(op);
    if (!info) return shapeError("unknown reference op '" + op + "'");
    if (static_cast<int>(a.size()) != info->arity)
        return shapeError(op + " takes " + std::to_string(info->arity) + " argument(s), not " +
                          std::to_string(a.size()));
    for (const char* p : info->params)
        if (!params.count(p)) return shapeError(op + " needs the parameter '" + p + "'");
    for (const Shape& s : a)
        if (s.count() == 0) return shapeError(op + ": an argument is empty");
    return info->outputShape(a, params);
}

std::optional<std::string> referenceOpValueError(const std::string& op,
                                                 const std::vector<const BufferData*>& args,
                                                 const OpParams& params) {
    const ReferenceOpInfo* info = findReferenceOp(op);
    if (!info || !info->checkValues) return std::nullopt;
    return info->checkValues(args, params);
}

std::optional<std::string> referenceOpTypeError(const std::string& op, ElementKind type,
                                                const std::string& buffer) {
    const ReferenceOpInfo* info = findReferenceOp(op);
    if (!info || !info->floatOnly || type == ElementKind::Float) return std::nullopt;
    return op + " computes fractions: its output must be a float buffer, and '" + buffer +
           "' is declared " + elementKindName(type);
}

BufferData runReferenceOp(const std::string& op, const std::vector<const BufferData*>& args,
                          const OpParams& params, ElementKind outType) {
    std::vector<Shape> shapes;
    for (const BufferData* a : args)
        shapes.push_back(a->shape);
    BufferData out = BufferData::zeros(outType, referenceOpShape(op, shapes, params).value());
    findReferenceOp(op)->compute(args, params, out);
    return out;
}

} // namespace vkp
