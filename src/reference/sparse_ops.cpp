// Sparse matrices and graphs: products in CSR and ELL form, breadth-first levels.
#include <cmath>
#include <cstdint>
#include <deque>
#include <sstream>

#include "reference/op_families.h"

namespace vkp::reference {
namespace {

std::string at(const char* name, uint64_t i, const BufferData& b) {
    return std::string(name) + "[" + std::to_string(i) + "] = " + b.format(i);
}

// What is wrong with rowptr as the row starts of `entries` entries, or nothing: whole numbers,
// from 0, never decreasing, ending at `entries`.
std::optional<std::string> checkRowStarts(const char* op, const BufferData& rowptr,
                                          uint64_t entries) {
    uint64_t n = rowptr.words.size();
    double previous = 0;
    for (uint64_t i = 0; i < n; ++i) {
        double v = rowptr.get(i);
        if (v != std::floor(v) || v < previous || (i == 0 && v != 0) || v > double(entries))
            return std::string(op) + ": " + at("rowptr", i, rowptr) +
                   (i == 0 && v != 0 ? " (rowptr starts at 0)"
                    : v < previous   ? " is below the row start before it"
                                     : " is outside 0 .. " + std::to_string(entries));
        previous = v;
    }
    if (previous != double(entries))
        return std::string(op) + ": rowptr ends at " + rowptr.format(n - 1) + ", not at the " +
               std::to_string(entries) + " entries of colidx";
    return std::nullopt;
}

std::optional<std::string> checkColumns(const char* op, const BufferData& colidx, uint64_t cols,
                                        bool paddingAllowed) {
    for (uint64_t i = 0; i < colidx.words.size(); ++i) {
        double v = colidx.get(i);
        if (paddingAllowed && v == -1) continue;
        if (v != std::floor(v) || v < 0 || v >= double(cols))
            return std::string(op) + ": " + at("colidx", i, colidx) + " is no column of x (0 .. " +
                   std::to_string(cols - 1) + (paddingAllowed ? ", or -1 for padding)" : ")");
    }
    return std::nullopt;
}

// y[r] = sum over e in [rowptr[r], rowptr[r + 1]) of vals[e] * x[colidx[e]].
void spmvCsr(const std::vector<const BufferData*>& a, const OpParams&, BufferData& out) {
    const BufferData &rowptr = *a[0], &colidx = *a[1], &vals = *a[2], &x = *a[3];
    for (uint64_t r = 0; r + 1 < rowptr.words.size(); ++r) {
        double s = 0;
        for (auto e = uint64_t(rowptr.get(r)); e < uint64_t(rowptr.get(r + 1)); ++e)
            s += vals.get(e) * x.get(uint64_t(colidx.get(e)));
        out.set(r, s);
    }
}

Result<Shape> spmvCsrShape(const std::vector<Shape>& a, const OpParams&) {
    if (a[0].count() < 2)
        return shapeError("spmv_csr: rowptr needs rows + 1 elements (at least 2)");
    if (a[1].count() != a[2].count())
        return shapeError("spmv_csr: colidx has " + std::to_string(a[1].count()) +
                          " elements and vals " + std::to_string(a[2].count()) + " (one each)");
    return Shape{{a[0].count() - 1}};
}

std::optional<std::string> checkCsr(const std::vector<const BufferData*>& a, const OpParams&) {
    if (auto e = checkRowStarts("spmv_csr", *a[0], a[1]->words.size())) return e;
    return checkColumns("spmv_csr", *a[1], a[3]->words.size(), false);
}

// y[r] = sum over k with colidx[r, k] >= 0 of vals[r, k] * x[colidx[r, k]].
void spmvEll(const std::vector<const BufferData*>& a, const OpParams&, BufferData& out) {
    const BufferData &colidx = *a[0], &vals = *a[1], &x = *a[2];
    uint64_t rows = colidx.shape.rows(), width = colidx.shape.cols();
    for (uint64_t r = 0; r < rows; ++r) {
        double s = 0;
        for (uint64_t k = 0; k < width; ++k) {
            double c = colidx.get(r * width + k);
            if (c >= 0) s += vals.get(r * width + k) * x.get(uint64_t(c));
        }
        out.set(r, s);
    }
}

Result<Shape> spmvEllShape(const std::vector<Shape>& a, const OpParams&) {
    if (a[0].dims.size() != 2 || !(a[1] == a[0]))
        return shapeError("spmv_ell: colidx and vals must both be 2D [rows, width] (got " +
                          a[0].str() + " and " + a[1].str() + ")");
    return Shape{{a[0].rows()}};
}

std::optional<std::string> checkEll(const std::vector<const BufferData*>& a, const OpParams&) {
    return checkColumns("spmv_ell", *a[0], a[2]->words.size(), true);
}

// Level of every node from `source` (edges r -> colidx[e], e in row r), -1 where unreachable.
void bfsLevels(const std::vector<const BufferData*>& a, const OpParams& params, BufferData& out) {
    const BufferData &rowptr = *a[0], &colidx = *a[1];
    uint64_t nodes = rowptr.words.size() - 1;
    std::vector<int64_t> level(nodes, -1);
    auto source = static_cast<uint64_t>(params.at("source"));
    std::deque<uint64_t> queue{source};
    level[source] = 0;
    while (!queue.empty()) {
        uint64_t r = queue.front();
        queue.pop_front();
        for (auto e = uint64_t(rowptr.get(r)); e < uint64_t(rowptr.get(r + 1)); ++e) {
            auto next = uint64_t(colidx.get(e));
            if (level[next] >= 0) continue;
            level[next] = level[r] + 1;
            queue.push_back(next);
        }
    }
    for (uint64_t i = 0; i < nodes; ++i)
        out.set(i, double(level[i]));
}

Result<Shape> bfsShape(const std::vector<Shape>& a, const OpParams& params) {
    if (a[0].count() < 2)
        return shapeError("bfs_levels: rowptr needs nodes + 1 elements (at least 2)");
    double source = params.at("source");
    if (source < 0 || source != std::floor(source) || source >= double(a[0].count() - 1)) {
        std::ostringstream text;
        text << "bfs_levels: source " << source << " is no node (0 .. " << a[0].count() - 2 << ")";
        return shapeError(text.str());
    }
    return Shape{{a[0].count() - 1}};
}

std::optional<std::string> checkGraph(const std::vector<const BufferData*>& a, const OpParams&) {
    if (auto e = checkRowStarts("bfs_levels", *a[0], a[1]->words.size())) return e;
    return checkColumns("bfs_levels", *a[1], a[0]->words.size() - 1, false);
}

} // namespace

std::vector<ReferenceOpInfo> sparseOps() {
    // clang-format off
    return {
        {"spmv_csr", 4, {}, "[rows]: the CSR matrix (rowptr [rows+1], colidx, vals) times x",
         spmvCsrShape, spmvCsr, checkCsr},
        {"spmv_ell", 3, {}, "[rows]: the ELL matrix (colidx and vals [rows, width], column -1 padding) times x",
         spmvEllShape, spmvEll, checkEll},
        {"bfs_levels", 2, {"source"}, "[nodes]: edges on a shortest path from source in the CSR graph (rowptr, colidx), -1 where unreachable",
         bfsShape, bfsLevels, checkGraph},
    };
    // clang-format on
}

} // namespace vkp::reference
