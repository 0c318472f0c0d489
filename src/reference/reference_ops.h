// Named CPU reference operations that compute expected outputs from a case's inputs.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "reference/buffer_data.h"

namespace vkp {

using OpParams = std::map<std::string, double>;

// The output shape for arguments of these shapes, or an error message. Called once arity,
// required parameters and non-empty arguments are checked.
using OpShapeRule = Result<Shape> (*)(const std::vector<Shape>& args, const OpParams& params);
// Fills `out` (already sized by the shape rule, of the output's element type) from `args`.
using OpComputeFn = void (*)(const std::vector<const BufferData*>& args, const OpParams& params,
                             BufferData& out);

// For ops that read values as indices or bins (gather, histogram): what is wrong with the
// arguments' values, naming the element ("idx[3] = 9 is outside x (8 elements)"), or nothing.
using OpValueCheck = std::optional<std::string> (*)(const std::vector<const BufferData*>& args,
                                                    const OpParams& params);

// The floating-point operations the op does on arguments of these shapes (a multiply-add counts
// two), for the ops whose arithmetic, not their memory traffic, may bound a kernel (matmul,
// attention, conv1d). Called once the shapes are accepted.
using OpArithmeticFn = double (*)(const std::vector<Shape>& args, const OpParams& params);

// One reference op: everything known about it lives in its one table entry.
struct ReferenceOpInfo {
    const char* name;
    int arity;                           // number of buffer arguments
    std::vector<const char*> params;     // required numeric parameters
    const char* summary;                 // one line for docs and `vkpuzzles show`
    OpShapeRule outputShape;             // the output's shape from the arguments' shapes
    OpComputeFn compute;                 // the values, for float or integer outputs
    OpValueCheck checkValues = nullptr;  // set where some argument values are not allowed
    bool floatOnly = false;              // computes fractions: only a float output holds them
    OpArithmeticFn arithmetic = nullptr; // set where arithmetic may bound a kernel
};

const std::vector<ReferenceOpInfo>& referenceOps();
const ReferenceOpInfo* findReferenceOp(const std::string& name);

// The output shape of `op` for arguments of these shapes, or an error message (no location:
// the caller knows where the op was written).
Result<Shape> referenceOpShape(const std::string& op, const std::vector<Shape>& args,
                               const OpParams& params);

// What is wrong with the arguments' values for `op` (an index outside a buffer, a value outside
// the bins), or nothing. runReferenceOp's precondition, checked when a case is materialised.
std::optional<std::string> referenceOpValueError(const std::string& op,
                                                 const std::vector<const BufferData*>& args,
                                                 const OpParams& params);

// What is wrong with the output `buffer`, of `type`, for `op` (softmax into an int buffer), or
// nothing.
std::optional<std::string> referenceOpTypeError(const std::string& op, ElementKind type,
                                                const std::string& buffer);

// The floating-point operations `op` does on arguments of these shapes (0: an op whose
// arithmetic is not counted; memory bounds it). Precondition: referenceOpShape() accepted them.
double referenceOpArithmetic(const std::string& op, const std::vector<Shape>& args,
                             const OpParams& params);

// Computes the op. Float outputs are computed in double and rounded once; integer outputs with
// 32-bit wrap-around, as the GPU does. Preconditions: referenceOpShape() accepted the arguments'
// shapes and referenceOpValueError() their values.
BufferData runReferenceOp(const std::string& op, const std::vector<const BufferData*>& args,
                          const OpParams& params, ElementKind outType);

} // namespace vkp
