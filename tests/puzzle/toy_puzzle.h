// A valid puzzle.toml with every kind of field, for the loader's tests (puzzle_loader_test.cpp,
// puzzle_set_test.cpp).
#pragma once

namespace vkp {

inline const char* const kToyToml = R"(title = "Toy"
track = "classic"
order = 7
statement = """
Add ten.
"""
hints = ["first hint", "second hint"]
tolerance = 0.001

[limits]
global_reads = 1
global_writes = 2

[[buffers]]
name = "a"
binding = 0
type = "float"
role = "input"

[[buffers]]
name = "tmp"
binding = 2
type = "int"
role = "scratch"

[[buffers]]
name = "result"
binding = 5
type = "float"
role = "output"
dims = 2

[[constants]]
name = "SIZE"
id = 3

[[constants]]
name = "STRIDE"
id = 9

[[cases]]
name = "first"
workgroup_size = [4, 2]
workgroups = [3]
constants = { SIZE = 6, STRIDE = 4294967295 }
inputs.a = { shape = [6], fill = "iota", start = 1, step = 2 }
inputs.tmp = { shape = [2], fill = "constant", value = -4 }
expected.result = { op = "add_scalar", args = ["a"], scalar = 10, shape = [2, 3] }

[[cases]]
workgroup_size = [1]
workgroups = [2, 3, 4]
constants = { SIZE = 4, STRIDE = -1 }
inputs.a = { shape = [2, 2], values = [[0, 1], [2, 3]] }
inputs.tmp = { shape = [5], fill = "random", seed = 42, min = -3, max = 3 }
expected.result = { shape = [4], values = [1.5, -2, 0, 8] }
)";

} // namespace vkp
