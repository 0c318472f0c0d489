// Where the files that ship with vkpuzzles are found at run time: the puzzles and the app's own
// shaders, in an installed tree or in the source tree a build came from.
#pragma once

#include <string>

namespace vkp {

// The folder holding puzzles/ and shaders/: PREFIX/share/vkpuzzles for a binary installed as
// PREFIX/bin/vkpuzzles (cmake --install, the .deb), the program's own folder (the Windows zip:
// vkpuzzles.exe beside puzzles/), the source tree for a build folder inside it, else the source
// tree this binary was built from.
std::string bundledDataDir();

// The puzzles that ship with vkpuzzles: bundledDataDir()/puzzles, whatever $VKPUZZLES_PUZZLES
// says.
std::string bundledPuzzleRoot();

// The puzzles when no --puzzles is given: $VKPUZZLES_PUZZLES, else bundledPuzzleRoot().
std::string defaultPuzzleRoot();

// One of the app's own shaders by file name (copy.comp): bundledDataDir()/shaders/NAME.
std::string bundledShaderPath(const std::string& name);

} // namespace vkp
