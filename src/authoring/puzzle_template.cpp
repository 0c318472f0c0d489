#include "authoring/puzzle_template.h"

#include <algorithm>
#include <cctype>

namespace vkp {
namespace {

// "reverse-double" -> "Reverse double".
std::string titleOf(const std::string& slug) {
    std::string t = slug;
    std::replace(t.begin(), t.end(), '-', ' ');
    t[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(t[0])));
    return t;
}

// Replaces every @KEY@ of `text`.
std::string fillIn(std::string text, const std::vector<std::pair<std::string, std::string>>& keys) {
    for (const auto& [key, value] : keys) {
        size_t at = text.find(key);
        while (at != std::string::npos) {
            text.replace(at, key.size(), value);
            at = text.find(key, at + value.size());
        }
    }
    return text;
}

// The cases both layouts share: sizes that are not multiples of the workgroup size, several
// workgroups, non-uniform data, expected values computed from the inputs (never a solution).
const char* const kCases = R"~(
# Cases: write several, with different launch shapes and uneven data, so that a wrong kernel
# cannot pass by luck. Sizes that are not a multiple of the workgroup size catch a missing guard;
# several workgroups catch gl_LocalInvocationID used for the global index.
[[cases]]
name = "6 elements, 2 workgroups of 4"
workgroup_size = [4]
@WORKGROUPS@inputs.a = { shape = [6], each = "(i * 7) % 5 - 2" }   # -2 0 2 -1 1 -2: computed per element
expected.result = { each = "a[n - 1 - i] * 2" }     # n: the element count; shape: a's

[[cases]]
name = "1 element"
workgroup_size = [8]
@WORKGROUPS@inputs.a = { shape = [1], values = [7] }
expected.result = { each = "a[n - 1 - i] * 2" }

[[cases]]
name = "37 elements, 5 workgroups of 8"
workgroup_size = [8]
@WORKGROUPS@inputs.a = { shape = [37], fill = "random", seed = 3, min = -50, max = 50 }
expected.result = { each = "a[n - 1 - i] * 2" }

[[cases]]
name = "300 elements, workgroups of 64"
hidden = true      # students see only whether it passes, never its data (vkpuzzles grade shows it)
points = 2         # what passing it is worth when graded (default 1)
workgroup_size = [64]
@WORKGROUPS@inputs.a = { shape = [300], each = "i % 3 == 0 ? -i : i * 5" }
expected.result = { each = "a[n - 1 - i] * 2" }
)~";

const char* const kHead =
    R"~(# @TITLE@: a puzzle made by `vkpuzzles new`. Every field is described in the puzzle format
# (docs/puzzle-format.md). Check it with (PACK: the folder that holds this puzzle's folder)
#   vkpuzzles --puzzles PACK check @SLUG@ --solution     (passes)
#   vkpuzzles --puzzles PACK check @SLUG@ --starter      (fails: the starter is the exercise)
#   vkpuzzles pack check PACK                            (can a wrong kernel pass your cases?)
title = "@TITLE@"
track = "class"        # puzzles are listed by track, then order
order = @ORDER@
statement = """
Write into result the elements of a in reverse order, each doubled:
result[i] = 2 * a[n - 1 - i], for every i < n = a.length().@PASSES@
"""
hints = [
  "Use one thread per element: i = gl_GlobalInvocationID.x.",
  "The last workgroup may have threads past the end: return when i >= a.length().",
]

[[buffers]]
name = "a"
binding = 0
type = "int"           # float | int | uint
role = "input"

[[buffers]]
name = "result"
binding = 1
type = "int"
role = "output"
)~";

const char* const kSinglePass = R"~(
# The workgroup count of each case follows its data: N is the first input's element count and
# WG the case's workgroup size, so "ceil_div(N, WG)" launches one thread per element or a few more.
# Instead of `each`, expected values may come from a reference op:
#   expected.result = { op = "reverse", args = ["a"] }
)~";

const char* const kMultiPass = R"~(
# Two kernels, run one after the other on the same buffers (a full barrier between them):
# starter/NAME.comp and solution/NAME.comp hold one kernel each.
[[buffers]]
name = "doubled"
binding = 2
type = "int"
role = "scratch"
size = "N"             # as long as a in every case; cases then leave it out

[[kernels]]
name = "scale"
buffers = ["a", "doubled"]

[[kernels]]
name = "reverse"
buffers = ["doubled", "result"]

[[passes]]
kernel = "scale"
workgroups = ["ceil_div(N, WG)"]

[[passes]]
kernel = "reverse"
workgroups = ["ceil_div(N, WG)"]
)~";

const char* const kStarter = R"~(#version 450
// One thread per element; the test case chooses how many (specialization constant 0).
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { int result[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    // Your code here: result[i] = 2 * a[n - 1 - i] for every i < n = a.length().
}
)~";

const char* const kSolution = R"~(#version 450
// One thread per element; the test case chooses how many (specialization constant 0).
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) writeonly buffer Result { int result[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = uint(a.length());
    if (i >= n) return; // the last workgroup may reach past the end
    result[i] = 2 * a[n - 1u - i];
}
)~";

const char* const kScaleStarter = R"~(#version 450
// Pass 1 of 2: doubled[i] = 2 * a[i]. One thread per element.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 2) writeonly buffer Doubled { int doubled[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    // Your code here.
}
)~";

const char* const kScaleSolution = R"~(#version 450
// Pass 1 of 2: doubled[i] = 2 * a[i]. One thread per element.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 2) writeonly buffer Doubled { int doubled[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(a.length())) return;
    doubled[i] = 2 * a[i];
}
)~";

const char* const kReverseStarter = R"~(#version 450
// Pass 2 of 2: result[i] = doubled[n - 1 - i]. Pass 1 has finished when this one starts.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 2) readonly buffer Doubled { int doubled[]; };
layout(set = 0, binding = 1) writeonly buffer Result { int result[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    // Your code here.
}
)~";

const char* const kReverseSolution = R"~(#version 450
// Pass 2 of 2: result[i] = doubled[n - 1 - i]. Pass 1 has finished when this one starts.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 2) readonly buffer Doubled { int doubled[]; };
layout(set = 0, binding = 1) writeonly buffer Result { int result[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = uint(doubled.length());
    if (i >= n) return;
    result[i] = doubled[n - 1u - i];
}
)~";

} // namespace

std::vector<TemplateFile> puzzleTemplate(const std::string& slug, int order, bool multiPass) {
    std::vector<std::pair<std::string, std::string>> keys = {
        {"@TITLE@", titleOf(slug)},
        {"@SLUG@", slug},
        {"@ORDER@", std::to_string(order)},
        {"@WORKGROUPS@", multiPass ? "" : "workgroups = [\"ceil_div(N, WG)\"]\n"},
        {"@PASSES@",
         multiPass ? "\nIn two passes: the kernel scale writes doubled[i] = 2 * a[i], then the "
                     "kernel\nreverse writes result[i] = doubled[n - 1 - i]."
                   : ""}};
    std::string toml =
        fillIn(std::string(kHead) + (multiPass ? kMultiPass : kSinglePass) + kCases, keys);
    if (!multiPass)
        return {{"puzzle.toml", toml}, {"starter.comp", kStarter}, {"solution.comp", kSolution}};
    return {{"puzzle.toml", toml},
            {"starter/scale.comp", kScaleStarter},
            {"solution/scale.comp", kScaleSolution},
            {"starter/reverse.comp", kReverseStarter},
            {"solution/reverse.comp", kReverseSolution}};
}

} // namespace vkp
