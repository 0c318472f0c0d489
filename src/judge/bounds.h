// Out-of-bounds accesses in a trace: every read, write or atomic of a buffer or shared array
// at an index past its length in the case, one finding per variable and line.
#pragma once

#include <vector>

#include "judge/finding.h"
#include "trace/trace.h"

namespace vkp {

// One finding per (variable, line), naming the first thread's cell, with the count of such
// accesses. A vector moved whole through a buffer's vector view (`vec4 v = a4[i]`) is one
// access, named as the vector (`a4[46]`); one that starts inside the buffer and ends past it,
// because the case's length is not a multiple of the view's width, is said to be so, with the
// view's declaration and what to do with the scalars that are left.
std::vector<Finding> boundsFindings(const Trace& trace);

} // namespace vkp
