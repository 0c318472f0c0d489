#!/usr/bin/env bash
# The grading step of .github/workflows/classroom.yml (docs/graders.md): grades the student's
# kernel files with `vkpuzzles grade --github-result` and hands the result to the reporter step
# as this step's output `result` (base64 of the JSON document the reporter reads). Settings, from
# the workflow's env:
#   VKPUZZLES_PUZZLE      the puzzle's slug, or "all": every puzzle of the pack, a SLUG.comp each
#   VKPUZZLES_PACK        the teacher's puzzles, if the folder exists
#   VKPUZZLES_SUBMISSION  the folder with the student's kernel files (default: the checkout)
#   VKPUZZLES_TIMEOUT     seconds one case may run (vkpuzzles' own default: 60 on lavapipe)
#   VKPUZZLES_TIME_LIMIT  seconds the whole grading may take (default 1200)
# The run's log is the student's to read: vkpuzzles' own lines (the teacher's, with hidden cases'
# data) are printed only when grading could not start.
set -uo pipefail

puzzle=${VKPUZZLES_PUZZLE:-}
pack=${VKPUZZLES_PACK:-.github/vkpuzzles/pack}
submission=${VKPUZZLES_SUBMISSION:-.}
limit=${VKPUZZLES_TIME_LIMIT:-1200}
output=${GITHUB_OUTPUT:-/dev/stdout}
export VKPUZZLES_DEVICE=${VKPUZZLES_DEVICE:-cpu}
export HOME=${HOME:-/tmp}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
result=$work/result.json

# A result written here, not by vkpuzzles: the reporter prints an "error" test's message.
errored() {
  printf '{"version": 1, "status": "error", "max_score": 0, "tests": [{"name": "grading", "status": "error", "score": 0, "message": "%s", "test_code": "", "filename": "", "line_no": 0}]}\n' \
    "$1" >"$result"
}

if [ -z "$puzzle" ]; then
  echo "grade.sh: VKPUZZLES_PUZZLE names no puzzle: set it in the workflow's env" >&2
  exit 1
fi

# The submission as vkpuzzles grades one: a folder holding the kernel file (one per kernel of a
# multi-pass puzzle; with "all", SLUG.comp or SLUG/ per puzzle): the submission folder's entries,
# without the dot folders (.git, .github) and without symbolic links.
mkdir -p "$work/class/student"
for entry in "$submission"/*; do
  [ -e "$entry" ] && cp -R "$entry" "$work/class/student/"
done
find "$work/class/student" -type l -delete

args=(--color never)
[ -d "$pack" ] && args+=(--puzzles "$pack")
if [ "$puzzle" = all ]; then
  args+=(grade --all "$work/class")
else
  args+=(grade "$puzzle" "$work/class")
fi
timeout --kill-after=10 "$limit" vkpuzzles "${args[@]}" --github-result "$result" \
  >"$work/log" 2>&1
status=$?

case $status in
  0) ;;
  124 | 137)
    errored "Grading stopped after $limit seconds, the time limit: a kernel that takes this long gets no points. Check it with vkpuzzles check: is a loop too long, or does it wait for something that never comes?"
    ;;
  *)
    cat "$work/log" >&2
    echo "grade.sh: vkpuzzles exited with status $status (above: why)" >&2
    exit 1
    ;;
esac
echo "result=$(base64 -w0 "$result")" >>"$output"
echo "graded: the Autograding Reporter step lists every case"
