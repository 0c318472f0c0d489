#!/usr/bin/env bash
# Regenerates the README's pictures of the app (needs a build and xvfb-run).
set -euo pipefail
cd "$(dirname "$0")/.."
shot() { xvfb-run -a -s "-screen 0 1600x1000x24" build/vkpuzzles --size 1280x800 --theme dark --font-scale 1 "$@"; }
# Tiled matmul solved; the pointer on thread (1, 2) of case 5 shows its reads and its write.
shot --screenshot assets/app-matmul-solved.png --puzzle matmul --case 5 --kernel puzzles/14-matmul/solution.comp --hover 862,687
# A missing barrier in the shared-memory puzzle: wrong cells, the race, thread 6's accesses.
shot --screenshot assets/app-shared-race.png --puzzle shared --case 2 --kernel assets/kernels/shared-missing-barrier.comp --hover 1040,615
