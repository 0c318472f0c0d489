#!/usr/bin/env bash
# Regenerates the pictures of the app in the README and docs/ (needs a build and xvfb-run). BIN overrides the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/vkpuzzles}
shot() { xvfb-run -a -s "-screen 0 1600x1000x24" "$BIN" --size 1280x800 --theme dark --font-scale 1 "$@"; }
# Tiled matmul solved; the pointer on thread (1, 2) of case 5 shows its reads and its write.
shot --screenshot assets/app-matmul-solved.png --puzzle matmul --case 5 --kernel puzzles/14-matmul/solution.comp --hover 862,687
# A missing barrier in the shared-memory puzzle: wrong cells, the race, thread 6's accesses.
shot --screenshot assets/app-shared-race.png --puzzle shared --case 2 --kernel assets/kernels/shared-missing-barrier.comp --hover 1040,615
# Visual debugging: thread (1, 2) of matmul's case 5 selected: its reads and writes numbered in
# order, arrows a -> tileA -> result and b -> tileB -> result, its accesses listed, the lines it
# ran marked in the editor (line 52 watched). The pointer rests on the status bar.
VKPUZZLES_VIEW="top=0.38;watch=52;line=52" shot --size 1600x1000 --hover 800,995 --screenshot assets/app-matmul-debug.png \
  --puzzle matmul --case 5 --kernel puzzles/14-matmul/solution.comp --thread 1,2 --tab buffers
# The walkthrough of matmul's official solution at step 3: the step's lines in the solution, the
# timeline at the end of round 1 with the step's tile cells ringed, thread (1, 1) selected.
VKPUZZLES_VIEW="walkthrough=3;top=0.5" shot --size 1600x1000 --hover 800,995 --screenshot assets/app-matmul-walkthrough.png --puzzle matmul
