#!/usr/bin/env bash
# The house style, enforced: every C++ file under src/ and tests/ (test data aside) is exactly as
# clang-format writes it with the repository's .clang-format. Debian 12's clang-format 14 and
# Debian 13's clang-format 19 agree on this tree; a difference fails with the file and line.
#   tests/style/format_check.sh SOURCE_DIR [--fix]
set -euo pipefail
src=${1:?usage: format_check.sh SOURCE_DIR [--fix]}
cd "$src"
command -v clang-format >/dev/null || { echo "clang-format is not installed (apt-get install clang-format)" >&2; exit 2; }
mapfile -d '' files < <(find src tests -path tests/data -prune -o \( -name '*.cpp' -o -name '*.h' \) -print0 | sort -z)
[ ${#files[@]} -gt 100 ] || { echo "found only ${#files[@]} C++ files under $src/src and $src/tests" >&2; exit 2; }
if [ "${2:-}" = --fix ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
if report=$(clang-format --dry-run -Werror "${files[@]}" 2>&1); then
  echo "all ${#files[@]} C++ files are formatted ($(clang-format --version | sed 's/.*version \([0-9.]*\).*/clang-format \1/'))"
  exit 0
fi
echo "$report" | head -60
echo "formatting differs from .clang-format in $(echo "$report" | grep -c 'error:') places (above); fix with: tests/style/format_check.sh . --fix" >&2
exit 1
