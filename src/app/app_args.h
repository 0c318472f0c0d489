// From the command line to the desktop app: which arguments mean "start the app", and the
// app's options parsed from them.
#pragma once

#include <ostream>

#include "app/app.h"
#include "base/args.h"
#include "base/result.h"

namespace vkp::app {

// No command (and not --help / --version): the app.
bool wantsApp(const Args& args);
Result<AppOptions> appOptionsFrom(const Args& args);
// VKPUZZLES_VIEW's text (see ViewScript); a Usage error names the part it cannot read.
Result<ViewScript> parseViewScript(const std::string& text);
// Parses the options and runs the app; usage errors exit 2 with one line on `err`.
int runAppFromArgs(const Args& args, std::ostream& err);

} // namespace vkp::app
