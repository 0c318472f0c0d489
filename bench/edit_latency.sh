#!/bin/bash
# What an edit costs the learner: every puzzle's official solution checked cold, as an edited
# kernel always is (new SPIR-V: no driver cache can help), traced as the app checks and untraced
# (--no-trace). Per puzzle: the time to the first case's verdict, to every verdict, and the
# pipelines the driver built and the time they took. Each check is a fresh process, through the
# worker process as in the app, with an empty Mesa shader cache of its own (as a new kernel finds
# it: nothing in it, though what the check compiles can be shared within it) and NVIDIA's disk
# cache off (__GL_SHADER_DISK_CACHE=0). MESA_SHADER_CACHE_DISABLE=true in the environment turns
# Mesa's off too (then lavapipe has no helper devices: src/gpu/pipeline_warmer.h).
#   bench/edit_latency.sh [VKPUZZLES_BINARY] [PUZZLE ...]   (default: build/vkpuzzles, every puzzle)
# docs/performance.md's latency table comes from this script. Environment: VKPUZZLES_DEVICE picks the device
# (llvmpipe for lavapipe).
set -u
V=${1:-build/vkpuzzles}
shift $(($# < 1 ? $# : 1))
export __GL_SHADER_DISK_CACHE=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ $# -gt 0 ]; then
    SLUGS="$*"
else
    SLUGS=$("$V" list --json | python3 -c 'import json,sys; print(" ".join(p["slug"] for p in json.load(sys.stdin)["puzzles"]))')
fi
DEVICE=$("$V" check map --solution --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["device"])' 2>/dev/null)
echo "cold checks of the official solutions on ${DEVICE:-?}, $(nproc) cores, $(date -u +%Y-%m-%d)"
printf "%-22s %5s | %10s %10s %9s | %10s %10s %9s\n" "puzzle" "cases" "traced:1st" "all" "pipelines" \
    "untraced:1st" "all" "pipelines"
n=0
for slug in $SLUGS; do
    n=$((n + 1))
    printf "  checking %s (%d)...\r" "$slug" "$n" >&2
    for mode in traced untraced; do
        flag=""
        [ "$mode" = untraced ] && flag="--no-trace"
        rm -rf "$TMP/cache"
        MESA_SHADER_CACHE_DIR="$TMP/cache" timeout 900 "$V" check "$slug" --solution --timing --json $flag \
            >"$TMP/$mode.json" 2>"$TMP/$mode.err"
    done
    python3 - "$slug" "$TMP/traced.json" "$TMP/untraced.json" <<'PY'
import json, sys
slug, traced, untraced = sys.argv[1:4]
def cols(path):
    try:
        r = json.load(open(path))
        t = r["timing_ms"]
        ok = "" if r.get("pass") else " FAIL"
        first = t.get("first_verdict", t["total"])  # a build without it: the whole check
        built = r.get("pipelines_built", -1)
        return r.get("cases_total", 0), "%9.2fs %9.2fs %3d %4.1fs%s" % (
            first / 1e3, t["total"] / 1e3, built, t["pipelines"] / 1e3, ok)
    except Exception as e:
        return 0, "%-34s" % ("failed: %s" % e)[:34]
cases, a = cols(traced)
_, b = cols(untraced)
print("%-22s %5s | %s | %s" % (slug, cases, a, b))
PY
done
echo "first: the first case's verdict; all: every verdict (the check's whole time); pipelines: how many the driver built, and their time"
