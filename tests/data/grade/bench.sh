#!/bin/sh
# The grading benchmark: `vkpuzzles grade` on 30 submissions of the classic puzzle map (15 right,
# 5 each of three wrong kernels from tests/data/wrong: a local index, an int truncation, an endless
# loop), traced in the worker as grade always runs. Prints the wall-clock time; the target is
# under a minute on lavapipe.
#   tests/data/grade/bench.sh [path/to/vkpuzzles]    (default: build/vkpuzzles)
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${1:-$root/build/vkpuzzles}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/class"
for i in $(seq -w 1 15); do cp "$root/puzzles/01-map/solution.comp" "$dir/class/right-$i.comp"; done
for i in $(seq 1 5); do
    cp "$root/tests/data/wrong/map-local-index.comp" "$dir/class/local-index-$i.comp"
    cp "$root/tests/data/wrong/map-int-truncation.comp" "$dir/class/int-truncation-$i.comp"
    cp "$root/tests/data/wrong/map-endless-loop.comp" "$dir/class/endless-$i.comp"
done
start=$(date +%s%N)
"$bin" grade map "$dir/class" --csv "$dir/class.csv" --color never > "$dir/out.txt" 2>/dev/null
end=$(date +%s%N)
tail -n 1 "$dir/out.txt"
echo "graded $(ls "$dir/class" | wc -l) submissions of map in $(( (end - start) / 1000000 )) ms" \
     "on $(head -n 1 "$dir/out.txt" | sed 's/.* on //')"
