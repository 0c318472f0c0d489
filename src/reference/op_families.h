// What the reference op families share inside this library: their error and parameter helpers,
// and each family's table entries (referenceOps() lists them all).
#pragma once

#include <vector>

#include "reference/reference_ops.h"

namespace vkp::reference {

// An error of the puzzle file, worded by the op ("spmv_csr: rowptr has 5 elements ...").
Error shapeError(std::string message);
// Parameter `name` as a whole number of at least 1, or the error naming it.
Result<uint64_t> positiveParam(const OpParams& params, const char* name);

// A 2D shape's rows and columns, a 1D one as one row.
struct RowsOf {
    uint64_t rows, cols;
    explicit RowsOf(const Shape& s)
        : rows(s.dims.size() == 2 ? s.rows() : 1), cols(s.dims.size() == 2 ? s.cols() : s.count()) {
    }
};

std::vector<ReferenceOpInfo> matrixOps(); // matvec, matmul_i8
std::vector<ReferenceOpInfo> sparseOps(); // spmv_csr, spmv_ell, bfs_levels
std::vector<ReferenceOpInfo> signalOps(); // conv2d, fft
std::vector<ReferenceOpInfo> orderOps();  // block_sort, topk

} // namespace vkp::reference
