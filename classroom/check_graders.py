#!/usr/bin/env python3
"""The graders' contracts, run by check-graders.sh (which says what it proves and where).

check_graders.py REPO DEB: as root, in a Debian 13 root with vkpuzzles installed from DEB.
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import time

import yaml

REPO, DEB = sys.argv[1], sys.argv[2]
HIDDEN = os.path.join(REPO, "tests/data/hidden")
# The hidden case of hidden-shift: its input starts at 7777 (expected 7787...), 419 elements,
# 448 threads. A number of these in a results file is its data shown to a student.
MARKERS = {"7777", "7778", "7787", "7788", "419", "448"}
HIDDEN_NAME = "the teacher's case"
POINTS = 6  # hidden-shift's cases: 1 + 1 + 3 (hidden) + 1
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")
LIMIT_SECONDS = "10"  # the time-limit check: its check never ends, on any machine

# Lavapipe's compiled shaders, where CI binds its cache (install_deb in .ci/run).
BASE_ENV = {"VKPUZZLES_TIMEOUT": "300"}
if os.path.isdir("/var/tmp/mesa-shader-cache"):
    BASE_ENV["MESA_SHADER_CACHE_DIR"] = "/var/tmp/mesa-shader-cache"


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


SOLUTION = read(os.path.join(HIDDEN, "01-shift/solution.comp"))


class Kind:
    """One submission and what every platform's results must say of it."""

    def __init__(self, name, files, score, why, gradable=True, env=None, fault=None):
        self.name, self.files, self.score, self.why = name, files, score, why
        self.gradable = gradable
        self.env = env or {}  # the teacher's settings
        self.fault = fault or {}  # the machine's environment: a fault made on purpose
        self.timed_out = "VKPUZZLES_TIME_LIMIT" in self.env


ENDLESS = SOLUTION.replace("uint i = gl_GlobalInvocationID.x;",
                           "uint i = gl_GlobalInvocationID.x;\n    uint k = 0u;\n"
                           "    while (k < 1u) {\n        k = k * 2u;\n    }")
assert ENDLESS != SOLUTION
# glslang overflows its stack on a sum of 50000 terms (issue 19): the compiler's process crashes.
CRASH = SOLUTION.replace("a[i] + 10u", "a[i] + 10u" + " + 0u" * 50000)
assert CRASH != SOLUTION
KINDS = [
    Kind("right", {"kernel.comp": SOLUTION}, 6, "pass"),
    Kind("wrong on the hidden case only",
         {"kernel.comp": read(os.path.join(HIDDEN, "kernels/wrong-on-hidden.comp"))}, 3,
         "wrong values (a hidden case: its data is not shown)"),
    Kind("does not compile", {"kernel.comp": SOLUTION.replace("a[i]", "b[i]")}, 0,
         "does not compile: kernel.comp:", gradable=False),
    Kind("an endless loop", {"kernel.comp": ENDLESS}, 0, "endless loop?"),
    Kind("crashes the compiler", {"kernel.comp": CRASH}, 0, "the compiler crashed",
         gradable=False),
    Kind("no file at all", {}, 0, "the folder holds 0 .comp files", gradable=False),
    Kind("an empty .comp", {"kernel.comp": ""}, 0, "kernel.comp is empty", gradable=False),
    Kind("a PNG", {"picture.png": PNG}, 0, "the folder holds 0 .comp files", gradable=False),
    Kind("a PNG named .comp", {"kernel.comp": PNG}, 0, "does not compile", gradable=False),
    Kind("prose named .comp", {"kernel.comp": "My kernel adds ten to each element.\n"}, 0,
         "does not compile", gradable=False),
    # A check that never ends, as on a GPU whose driver hangs: the worker process stops on its
    # first job (vkpuzzles' test hook) and a case may wait an hour, so only the grader's time
    # limit ends the grading.
    Kind("never ends: the grader's time limit", {"kernel.comp": SOLUTION}, 0, "the time limit",
         env={"VKPUZZLES_TIME_LIMIT": LIMIT_SECONDS, "VKPUZZLES_TIMEOUT": "3600"},
         fault={"VKPUZZLES_TEST_WORKER": "stop"}),
]


def make_pack(dest):
    """The teacher's pack: hidden-shift, whose case 3 is hidden."""
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    shutil.copytree(os.path.join(HIDDEN, "01-shift"), os.path.join(dest, "01-shift"))


def put_files(folder, files):
    os.makedirs(folder, exist_ok=True)
    for name, content in files.items():
        with open(os.path.join(folder, name), "wb" if isinstance(content, bytes) else "w") as f:
            f.write(content)


def run(cmd, env, cwd=None):
    full = dict(os.environ)
    full.update(env)
    # A grader that hangs fails its check rather than the whole phase: far above what any takes.
    return subprocess.run(cmd, env=full, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace", timeout=900)


class Failed(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise Failed(what)


def leaked(text):
    for token in re.findall(r"[0-9.]+", text):
        if token in MARKERS:
            return token
    return HIDDEN_NAME if HIDDEN_NAME in text else None


def common_checks(text, kind):
    expect(len(text.encode()) < 1000000, "the results file is %d bytes" % len(text.encode()))
    leak = leaked(text)
    expect(leak is None, "the hidden case's data (%s) is in the results" % leak)
    expect(kind.why in text, "the results do not say why: no %r in them" % kind.why)


# PrairieLearn: the image as the Dockerfile makes it (its entrypoint copied where the Dockerfile
# copies it, its ENV), /grade laid out as PrairieLearn lays it out, the settings as info.json's
# externalGradingOptions.environment gives them.
def prairielearn_image():
    dockerfile = read(os.path.join(REPO, "classroom/prairielearn/Dockerfile"))
    entry = re.search(r"^COPY grade\.sh (\S+)$", dockerfile, re.M).group(1)
    shutil.copy(os.path.join(REPO, "classroom/prairielearn/grade.sh"), entry)
    os.chmod(entry, 0o755)
    env = dict(re.findall(r"^ENV (\w+)=(\S+)$", dockerfile, re.M))
    cmd = json.loads(re.search(r"^CMD (\[.*\])$", dockerfile, re.M).group(1))
    expect(cmd == [entry], "the image's CMD %s is not its entrypoint %s" % (cmd, entry))
    return cmd, env


def prairielearn(kind, image):
    cmd, image_env = image
    shutil.rmtree("/grade", ignore_errors=True)
    for d in ("student", "tests", "data"):
        os.makedirs("/grade/" + d)
    make_pack("/grade/tests/pack")
    put_files("/grade/student", kind.files)
    env = dict(BASE_ENV, **image_env, VKPUZZLES_PUZZLE="hidden-shift", **kind.env, **kind.fault)
    r = run(cmd, env)
    expect(r.returncode == 0, "the entrypoint exited %d:\n%s" % (r.returncode, r.stdout))
    expect(leaked(r.stdout) is None, "the entrypoint printed the hidden case's data:\n" + r.stdout)
    text = read("/grade/results/results.json")
    doc = json.loads(text)
    common_checks(text, kind)
    expect(doc.get("gradable", True) == kind.gradable, "gradable is %s" % doc.get("gradable"))
    expect(isinstance(doc.get("message"), str), "no message")
    if not kind.gradable:
        expect(doc["format_errors"], "not gradable, and no format_errors say why")
        return
    expect(abs(doc["score"] - kind.score / POINTS) < 1e-9, "score %s" % doc["score"])
    if kind.timed_out:
        return
    tests = doc["tests"]
    expect(len(tests) == 4, "%d tests" % len(tests))
    expect(sum(t["points"] for t in tests) == kind.score, "the tests' points do not add up")
    expect(sum(t["max_points"] for t in tests) == POINTS, "the tests' max_points")
    expect(tests[2]["name"] == "case 3: hidden by your teacher", tests[2]["name"])


# Gradescope: the zip's files in /autograder/source, setup.sh run once as the image is built,
# run_autograder copied to /autograder/run_autograder, each submission in /autograder/submission.
def gradescope_image():
    shutil.rmtree("/autograder", ignore_errors=True)
    source = "/autograder/source"
    shutil.copytree(os.path.join(REPO, "classroom/gradescope"), source)
    make_pack(os.path.join(source, "pack"))
    shutil.copy(DEB, source)
    r = run(["bash", os.path.join(source, "setup.sh")], {}, cwd=source)
    expect(r.returncode == 0, "setup.sh exited %d:\n%s" % (r.returncode, r.stdout))
    shutil.copy(os.path.join(source, "run_autograder"), "/autograder/run_autograder")
    os.chmod("/autograder/run_autograder", 0o755)
    return read(os.path.join(source, "settings"))


def gradescope(kind, settings):
    # The teacher's settings: the puzzle set, the other lines as they are.
    lines = ["VKPUZZLES_PUZZLE=hidden-shift"] + ["%s=%s" % kv for kv in kind.env.items()]
    text = re.sub(r"^VKPUZZLES_PUZZLE=.*$", "\n".join(lines), settings, flags=re.M)
    for source in ("/autograder/source", "/opt/vkpuzzles-debian/autograder/source"):
        if os.path.isdir(source):
            with open(source + "/settings", "w") as f:
                f.write(text)
    for d in ("submission", "results"):
        shutil.rmtree("/autograder/" + d, ignore_errors=True)
    os.makedirs("/autograder/results")
    put_files("/autograder/submission", kind.files)
    r = run(["/autograder/run_autograder"], dict(BASE_ENV, **kind.fault), cwd="/autograder")
    expect(r.returncode == 0, "run_autograder exited %d:\n%s" % (r.returncode, r.stdout))
    text = read("/autograder/results/results.json")
    inside = "/opt/vkpuzzles-debian/autograder/results/results.json"
    if os.path.isdir("/opt/vkpuzzles-debian"):
        expect(os.path.isfile(inside) and read(inside) == text,
               "run_autograder did not grade inside the Debian root")
    doc = json.loads(text)
    common_checks(text, kind)
    expect(doc["score"] == kind.score, "score %s" % doc["score"])
    if kind.timed_out:
        return
    tests = doc["tests"]
    expect(len(tests) == 4, "%d tests" % len(tests))
    expect(tests[2]["visibility"] == "after_published", "the hidden case's test is visible")
    expect(sum(t["score"] for t in tests) == kind.score, "the tests' scores do not add up")


def gradescope_debian_root():
    """What setup.sh leaves on Gradescope's Ubuntu: a Debian 13 root with vkpuzzles installed in
    /opt/vkpuzzles-debian, the zip's files in its /autograder/source. Here it is this root itself,
    hard-linked (no debootstrap, no Ubuntu), with nothing mounted in it: no /proc, as in a Docker
    container, which grants no mount. run_autograder then grades inside it with chroot."""
    root = "/opt/vkpuzzles-debian"
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    expect(subprocess.run(["cp", "-al", "/usr", root + "/usr"]).returncode == 0, "cp -al /usr")
    expect(subprocess.run(["cp", "-a", "/etc", root + "/etc"]).returncode == 0, "cp -a /etc")
    for top in ("bin", "lib", "lib64", "sbin"):
        if os.path.islink("/" + top):
            os.symlink(os.readlink("/" + top), os.path.join(root, top))
    for d in ("tmp", "var/tmp", "dev"):
        os.makedirs(os.path.join(root, d))
        os.chmod(os.path.join(root, d), 0o1777 if "tmp" in d else 0o755)
    nodes = ["/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"]
    expect(subprocess.run(["cp", "-a"] + nodes + [root + "/dev/"]).returncode == 0, "/dev nodes")
    shutil.copytree("/autograder/source", root + "/autograder/source")  # setup.sh's last line
    expect(not os.path.exists(root + "/proc/self"), "the root has a /proc")
    return root


# GitHub Classroom: a checkout of the template repository (the workflow, the .deb, the pack, the
# student's files at the top), the workflow's `run:` steps run in it as the runner runs them
# (bash -e, the job's env, a GITHUB_OUTPUT file per step), then the reporter's reading: each
# runner's result is the env variable RUNNER_RESULTS, base64 of JSON, whose tests' scores
# Classroom adds up against max_score (autograding-grading-reporter, src/main.js and
# src/notify-classroom.js).
WORKFLOW = os.path.join(REPO, "classroom/github/.github/workflows/classroom.yml")


def github(kind, state):
    ws = "/root/work/assignment"
    shutil.rmtree(ws, ignore_errors=True)
    shutil.copytree(os.path.join(REPO, "classroom/github/.github"), os.path.join(ws, ".github"))
    shutil.copy(DEB, os.path.join(ws, ".github/vkpuzzles"))
    make_pack(os.path.join(ws, ".github/vkpuzzles/pack"))
    with open(os.path.join(ws, "README.md"), "w") as f:
        f.write("The assignment: add ten to each element.\n")
    put_files(ws, kind.files)
    flow = yaml.safe_load(read(WORKFLOW))
    job = flow["jobs"]["run-autograding-tests"]
    expect(job["container"] in ("debian:13", "debian:trixie"), "container %s" % job["container"])
    env = {k: str(v) for k, v in job["env"].items()}
    env.update(BASE_ENV)
    env.update(VKPUZZLES_PUZZLE="hidden-shift", **kind.env, **kind.fault)
    env["GITHUB_WORKSPACE"] = ws
    outputs = {}
    reporter = None
    for i, step in enumerate(job["steps"]):
        if "run" in step:
            # The install step once (it is the same every time); the others every time.
            if state.get("installed") and "apt-get" in step["run"]:
                continue
            out = "/root/work/output-%d" % i
            open(out, "w").close()
            r = run(["bash", "-e", "-c", step["run"]], dict(env, GITHUB_OUTPUT=out), cwd=ws)
            expect(r.returncode == 0, "step %r exited %d:\n%s" % (step["name"], r.returncode,
                                                                   r.stdout))
            expect(leaked(r.stdout) is None,
                   "step %r printed the hidden case's data:\n%s" % (step["name"], r.stdout))
            if "apt-get" in step["run"]:
                state["installed"] = True
            values = dict(line.split("=", 1) for line in read(out).splitlines() if "=" in line)
            if "id" in step:
                outputs[step["id"]] = values
        elif "autograding-grading-reporter" in step.get("uses", ""):
            reporter = step
    expect(reporter is not None, "the workflow has no reporter step")
    total = max_score = 0
    for runner in reporter["with"]["runners"].split(","):
        raw = reporter["env"][runner.strip().upper() + "_RESULTS"]
        raw = re.sub(r"\$\{\{\s*steps\.([\w-]+)\.outputs\.(\w+)\s*\}\}",
                     lambda m: outputs.get(m.group(1), {}).get(m.group(2), ""), raw)
        text = base64.b64decode(raw).decode("utf-8")
        doc = json.loads(text)
        common_checks(text, kind)
        expect(doc["version"] == 1, "version %s" % doc["version"])
        if kind.timed_out:
            expect(doc["status"] == "error", "status %s after the time limit" % doc["status"])
            continue
        expect(doc["status"] == ("pass" if kind.score == POINTS else "fail"),
               "status %s" % doc["status"])
        expect(all(t["line_no"] == 0 for t in doc["tests"]), "a test's line_no is not 0")
        max_score += doc["max_score"]
        total += sum(t["score"] for t in doc["tests"])
    if not kind.timed_out:
        expect(max_score == POINTS, "max_score %s" % max_score)
        expect(total == kind.score, "the reporter would send Classroom %s points" % total)


def teacher_sees_hidden_data():
    """The leak check has teeth: the teacher's own JSON of the same kernel holds the markers."""
    work = "/root/work/teacher"
    shutil.rmtree(work, ignore_errors=True)
    make_pack(work + "/pack")
    put_files(work + "/class/student", KINDS[1].files)
    r = run(["vkpuzzles", "--puzzles", work + "/pack", "grade", "hidden-shift", work + "/class",
             "--json", work + "/teacher.json"], BASE_ENV)
    expect(r.returncode == 0, r.stdout)
    expect(leaked(read(work + "/teacher.json")) is not None,
           "the teacher's JSON holds none of the hidden case's data: the check would prove nothing")


def main():
    os.makedirs("/root/work", exist_ok=True)
    failures = 0

    def check(name, fn, *args):
        nonlocal failures
        started = time.time()
        try:
            result = fn(*args)
            print("PASS  %s (%.1f s)" % (name, time.time() - started), flush=True)
            return result
        except (Failed, KeyError, ValueError, TypeError, OSError, AttributeError,
                subprocess.TimeoutExpired) as e:
            failures += 1
            print("FAIL  %s (%.1f s): %s: %s" % (name, time.time() - started, type(e).__name__,
                                                 e), flush=True)
            return None

    check("the teacher's JSON holds the hidden case's data", teacher_sees_hidden_data)
    image = check("prairielearn: the image's entrypoint, as the Dockerfile installs it",
                  prairielearn_image)
    settings = check("gradescope: setup.sh with the .deb", gradescope_image)
    state = {}
    for kind in KINDS:
        if image:
            check("prairielearn: " + kind.name, prairielearn, kind, image)
        if settings is not None:
            check("gradescope: " + kind.name, gradescope, kind, settings)
        check("github: " + kind.name, github, kind, state)
    if settings is not None:
        root = check("gradescope on Ubuntu: the Debian 13 root setup.sh leaves, without /proc",
                     gradescope_debian_root)
        if root:
            for kind in KINDS:
                check("gradescope in its Debian root: " + kind.name, gradescope, kind, settings)
            shutil.rmtree(root, ignore_errors=True)
    print("FAILED: %d check%s (above)" % (failures, "" if failures == 1 else "s") if failures
          else "every grader kept its contract")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
