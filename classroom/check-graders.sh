#!/usr/bin/env bash
# The graders of classroom/ held to their platforms' contracts (docs/graders.md), in a Debian 13
# root where the vkpuzzles .deb is installed (.ci/run's phase "Debian 13: the graders'
# contracts"), as root:
#   classroom/check-graders.sh DEB
# The root is laid out as each platform lays out its machine: PrairieLearn's /grade, Gradescope's
# /autograder (setup.sh run once with DEB), a GitHub checkout whose workflow's steps run as the
# workflow runs them, and the reporter's reading of the result done as it does it. Each grades
# submissions of a small puzzle with a hidden case: right, wrong on the hidden case only, not
# compiling, an endless loop, a kernel that crashes the compiler, none at all, an empty .comp, a
# PNG, a PNG named .comp, prose named .comp, and a check that never ends (its worker stopped on
# purpose), which only the grader's time limit ends. Every results file must parse, score it
# right, say why, and hold nothing of the hidden case (check_graders.py). Prints a line per check
# and its time; exits 1 if one failed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
deb=$(realpath "${1:?usage: classroom/check-graders.sh DEB}")

# python3 reads the results (json) and the workflow (yaml), as any script of a grader would.
if ! python3 -c 'import yaml' 2>/dev/null; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-yaml; } >/dev/null 2>&1 ||
    { echo "check-graders.sh: apt-get could not install python3 and python3-yaml" >&2; exit 2; }
fi
command -v vkpuzzles >/dev/null || { echo "check-graders.sh: vkpuzzles is not installed" >&2; exit 2; }
exec python3 "$repo/classroom/check_graders.py" "$repo" "$deb"
