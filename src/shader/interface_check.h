// Compares what a kernel declares with what its puzzle needs, before anything is dispatched.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "puzzle/puzzle.h"
#include "shader/reflect.h"

namespace vkp {

// Errors for a missing, extra or mistyped binding, a non-storage or oddly shaped block, an
// unknown or reserved constant id, and a fixed local size that some case cannot use. Each
// points at the kernel line that declares the thing, when it can be found in `source`.
// `kernelIndex` picks the puzzle's kernel (Puzzle::kernels) this is: it binds only that
// kernel's buffers, and its push-constant block must hold exactly what its passes set.
std::vector<Diagnostic> checkInterface(const Puzzle& puzzle, const KernelInterface& kernel,
                                       const std::string& source, const std::string& fileName,
                                       size_t kernelIndex = 0);

// The first `uses` rule of the statement (RuleCheckKind::Uses) that none of the program's
// kernels keeps, as an error on `fileName` that quotes it; judged on the compiled code.
std::optional<Diagnostic> brokenUsesRule(const Puzzle& puzzle,
                                         const std::vector<const KernelInterface*>& kernels,
                                         const std::string& fileName);

} // namespace vkp
