#!/usr/bin/env bash
# PrairieLearn's external grader for vkpuzzles (docs/graders.md): grades the files a student
# submitted, in /grade/student, into /grade/results/results.json (`vkpuzzles grade
# --prairielearn`: a score from 0 to 1, a test per case; not gradable when the kernel does not
# compile). Settings, from the question's info.json (externalGradingOptions.environment):
#   VKPUZZLES_PUZZLE      the puzzle's slug, or "all": every puzzle of the pack, a SLUG.comp each
#   VKPUZZLES_PACK        the teacher's puzzles (default: the question's tests/pack, which
#                         PrairieLearn copies to /grade/tests/pack and never shows to students)
#   VKPUZZLES_TIMEOUT     seconds one case may run (vkpuzzles' own default: 60 on lavapipe)
#   VKPUZZLES_TIME_LIMIT  seconds the whole grading may take (default 100); keep it under
#                         info.json's `timeout`, so that a results file is always written
# Nothing the student may not read is printed: vkpuzzles' own lines (the teacher's, with hidden
# cases' data) go to /grade/results/vkpuzzles.log only when grading could not start.
set -uo pipefail

grade=/grade
results=$grade/results/results.json
puzzle=${VKPUZZLES_PUZZLE:-}
pack=${VKPUZZLES_PACK:-$grade/tests/pack}
limit=${VKPUZZLES_TIME_LIMIT:-100}
export VKPUZZLES_DEVICE=${VKPUZZLES_DEVICE:-cpu}
export HOME=${HOME:-/tmp}
mkdir -p "$grade/results"

# A results file written here, not by vkpuzzles: why nothing was graded. gradable false counts
# no attempt against the student.
not_graded() {
  printf '{"gradable": false, "score": 0, "message": "%s", "format_errors": ["%s"], "tests": []}\n' \
    "$1" "$1" >"$results"
}

if [ -z "$puzzle" ]; then
  not_graded "The grader is not set up: VKPUZZLES_PUZZLE names no puzzle (info.json, externalGradingOptions.environment). Tell your teacher."
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The submission as vkpuzzles grades one: a folder holding the kernel file (one per kernel of a
# multi-pass puzzle; with "all", SLUG.comp or SLUG/ per puzzle). Symbolic links are dropped, so
# that no submission can point at the teacher's files.
mkdir -p "$work/class/student"
if [ -d "$grade/student" ]; then
  cp -R "$grade/student/." "$work/class/student/"
  find "$work/class/student" -type l -delete
fi

args=(--color never)
[ -d "$pack" ] && args+=(--puzzles "$pack")
if [ "$puzzle" = all ]; then
  args+=(grade --all "$work/class")
else
  args+=(grade "$puzzle" "$work/class")
fi
timeout --kill-after=10 "$limit" vkpuzzles "${args[@]}" --prairielearn "$results" \
  >"$work/log" 2>&1
status=$?

case $status in
  0) ;;
  124 | 137)
    printf '{"gradable": true, "score": 0, "message": "%s", "tests": []}\n' \
      "Grading stopped after $limit seconds, the time limit: a kernel that takes this long gets no points. Check it with vkpuzzles check: is a loop too long, or does it wait for something that never comes?" \
      >"$results"
    ;;
  *)
    # A usage, puzzle-file or device error: the teacher's to fix. The log holds no student data
    # of a hidden case, since nothing was graded.
    cp "$work/log" "$grade/results/vkpuzzles.log"
    cat "$work/log" >&2
    not_graded "The grader could not grade (vkpuzzles exited with status $status; the job's log says why). Tell your teacher."
    exit 1
    ;;
esac
