#!/bin/sh
# A class of N students (default 300) on 5 built-in puzzles (map, zip, broadcast, pooling, dot) as
# a pack in $out/pack, one folder per student in $out/class: per puzzle, by a fixed rotation, the
# official solution, a known-wrong kernel of tests/data/wrong, a kernel that does not compile, or
# nothing handed in, each with an unused function of its own so that no two students' kernels
# compile to the same SPIR-V. Deterministic: the same N gives the same class.
#   tests/data/grade/make_class.sh . /tmp/class300 300   (SRC: the repository; OUT: where)
set -eu
src=$1; out=$2; n=${3:-300}
rm -rf "$out/pack" "$out/class"; mkdir -p "$out/pack" "$out/class"
for p in 01-map 02-zip 05-broadcast 09-pooling 10-dot; do cp -r "$src/puzzles/$p" "$out/pack/"; done
w=$src/tests/data/wrong
i=0
while [ $i -lt "$n" ]; do
  s=$(printf 'student-%03d' $i); mkdir "$out/class/$s"
  k=0
  for p in map zip broadcast pooling dot; do
    case $p in
      map) wrong="map-local-index map-int-truncation map-endless-loop";;
      zip) wrong="zip-index-off-by-one zip-local-index";;
      broadcast) wrong="broadcast-transposed";;
      pooling) wrong="pooling-int-cache pooling-two-terms";;
      dot) wrong="dot-int-cache dot-odd-count-first-round-only";;
    esac
    dir=$(ls -d "$out/pack/"*-$p)
    r=$(( ((i * 2654435761 + k * 40503 + 12345) / 131) % 10 ))
    set -- $wrong
    if [ $r -lt 5 ]; then cp "$dir/solution.comp" "$out/class/$s/$p.comp"
    elif [ $r -lt 8 ]; then j=$(( (i + k) % $# + 1 )); eval f=\${$j}; cp "$w/$f.comp" "$out/class/$s/$p.comp"
    elif [ $r -eq 8 ]; then sed 's/void main/void mian/' "$dir/solution.comp" > "$out/class/$s/$p.comp"
    fi  # r = 9: not handed in
    # Each student's kernel its own SPIR-V, as real students' are (no pipeline shared between
    # two students): an unused function of their own.
    [ -f "$out/class/$s/$p.comp" ] && printf '\nfloat unusedOf%s(float x) { return x * %d.0; }\n' "$i" "$((i + 1))" >> "$out/class/$s/$p.comp"
    k=$((k + 1))
  done
  i=$((i + 1))
done
echo "$n students in $out/class, pack in $out/pack"
