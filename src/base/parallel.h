// Work spread over the machine's cores: f(0) .. f(n - 1), each index once, on up to one thread per
// core (the caller's among them), returning when all are done. The calls must not depend on one
// another; each writes only its own results.
#pragma once

#include <cstddef>
#include <functional>

namespace vkp {

void parallelFor(size_t n, const std::function<void(size_t)>& f);

} // namespace vkp
