// `vkpuzzles new SLUG [--multi-pass] [--dir DIR]`: writes a working puzzle folder to start from.
#pragma once

#include <iosfwd>

#include "base/args.h"

namespace vkp::cli {

// Writes DIR/NN-SLUG (DIR: --dir, else the current folder; NN: one past the highest number of
// DIR's numbered folders) from authoring/puzzle_template.h. Refuses a bad slug and a folder that
// exists, or a puzzle of that slug in DIR. Returns the exit status.
int newPuzzle(const Args& args, std::ostream& out, std::ostream& err);

} // namespace vkp::cli
