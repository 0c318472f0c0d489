// The first instrumentation rewriter: declares what the others write through (the trace buffer in a
// descriptor set of its own, the built-ins, the Private per-invocation state) and, when tracing,
// appends the helper functions the rewritten code calls: init() and record(w0, index, value,
// extra). Ids go to state.ids (rewrite/instrument_state.h).
#pragma once

#include "rewrite/instrument_state.h"

namespace vkp {

void declareTraceObjects(InstrumentState& state);
void buildTraceFunctions(InstrumentState& state); // init() and record(); only when tracing
// Before each return of the entry point: the records this invocation made (kept or not) into its
// count word. record() counts in a Private variable only.
void storeRecordCount(InstrumentState& state, std::vector<SpirvInstruction>& out);

} // namespace vkp
