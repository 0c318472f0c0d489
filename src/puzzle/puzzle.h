// The puzzle model: what a puzzle.toml describes, validated, with data still unmaterialised.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "puzzle/device_needs.h"
#include "puzzle/expr.h"
#include "reference/buffer_data.h"

namespace vkp {

enum class RoleKind { Input, Output, Scratch };
const char* roleKindName(RoleKind role);

struct BufferDecl {
    std::string name;     // the array's name in the kernel, used in messages
    uint32_t binding = 0; // set 0
    ElementKind type = ElementKind::Float;
    RoleKind role = RoleKind::Input;
    int dims = 1;             // 1 or 2: how it is drawn
    std::optional<Expr> size; // scratch: element count from N and WG; cases may then omit its data
    // An output that starts as zeros (`zeroed = true`; the statement must say so, e.g. bins a
    // kernel adds to). Other outputs start poisoned (BufferData::poisoned).
    bool zeroed = false;
};

// One cell of a buffer of this shape, as messages name it: "result[1]", "c[1][2]".
std::string cellName(const BufferDecl& b, const Shape& s, uint64_t i);

struct ConstantDecl {
    std::string name; // as in the kernel's `layout(constant_id = N) const uint NAME`
    uint32_t id = 3;  // 0..2 are the workgroup size
};

// How a case's buffer is filled (inputs, scratch) or what it must hold (outputs).
struct DataSpec {
    // Unchecked: an output with no expected values (a learner's own case of a puzzle whose
    // expected values are written out by hand): sized, run and shown, never compared.
    // Each: a per-element expression (`each = "a[n - 1 - i] * 2"`, puzzle/element_expr.h).
    enum class Kind { Values, Iota, Constant, Random, Op, Unchecked, Each };
    Kind kind = Kind::Values;
    Shape shape;                          // for Op, derived from the op's arguments
    std::vector<double> values;           // Values
    double start = 0, step = 1;           // Iota
    double value = 0;                     // Constant
    uint64_t seed = 0;                    // Random
    int64_t min = 0, max = 0;             // Random: integers in [min, max]
    std::string op;                       // Op: a reference op's name
    std::vector<size_t> args;             // Op: indices into Puzzle::buffers
    std::map<std::string, double> params; // Op: e.g. scalar, window, block
    std::optional<Expr> each;             // Each: parsed with Expr::parseElement
    bool shapeGiven = false;              // Each (expected): `shape` written, not the first input's
    // Inputs other than the first may write their shape as expressions of the first input's N,
    // rows and cols (`shape = ["cols", "cols"]`): one per dimension, as written, re-evaluated
    // when a benchmark scales the first input. Empty: the shape is numbers.
    std::vector<Expr> shapeExprs;
    SourceLocation where; // the table in puzzle.toml, for later messages
};

struct TestCase {
    std::string name; // may be empty
    std::array<uint32_t, 3> workgroupSize{1, 1, 1};
    std::array<uint32_t, 3> workgroups{1, 1, 1};
    std::map<uint32_t, uint32_t> constants; // constant id -> value (bit pattern)
    // The same as written, to re-evaluate for another N (benchmarks): literals or expressions.
    std::array<Expr, 3> workgroupExprs{Expr::literal(1), Expr::literal(1), Expr::literal(1)};
    std::map<uint32_t, Expr> constantExprs;
    std::vector<std::optional<DataSpec>>
        data; // per Puzzle::buffers; inputs/scratch: fill, outputs: expected
    SourceLocation where;
    bool own = false; // a learner's own case (puzzle/own_case.h): never counts towards solving
    // Grading (`points`, default 1): what passing this case is worth. A hidden case (`hidden`):
    // students see that it exists and whether it passes, never its inputs, sizes or values.
    double points = 1;
    bool hidden = false;

    uint64_t threadCount() const;
};

// A launch's sizes as the case list writes them, trailing 1s left out: "(4, 4)", "(6)".
std::string dimsText(const std::array<uint32_t, 3>& d);

struct Limits {
    std::optional<uint32_t> globalReads;  // loads from storage buffers per thread
    std::optional<uint32_t> globalWrites; // stores to storage buffers per thread
    // Set when a limit is written as an expression of the case ("2 * ceil_div(INNER, TILE)").
    // The number above is then its value in one case (caseChecks, judge/statement_rules.h) or,
    // in Puzzle::limits, the largest over the puzzle's cases: all that one figure can promise.
    std::optional<Expr> globalReadsExpr;
    std::optional<Expr> globalWritesExpr;

    // Efficiency limits, judged on the trace under the modelled memory system (judge/efficiency.h):
    // global_efficiency: every global request's needed sectors / touched sectors is at least this
    // (0 < x <= 1; 1.0: every request touches the fewest sectors that can hold its bytes).
    std::optional<double> globalEfficiency;
    std::optional<uint32_t>
        bankConflicts; // the most wavefronts one shared request may take (1: none)
    // Requests in which some lanes of a modelled subgroup sat idle, counted per workgroup (the most
    // over workgroups); a number or an expression of the case like the budgets above.
    std::optional<uint32_t> divergentRequests;
    std::optional<Expr> divergentRequestsExpr;
    // Atomic operations on storage buffers per workgroup (the most over workgroups).
    std::optional<uint32_t> globalAtomicsPerWorkgroup;
    std::optional<Expr> globalAtomicsPerWorkgroupExpr;

    bool anyEfficiency() const {
        return globalEfficiency || bankConflicts || divergentRequests || globalAtomicsPerWorkgroup;
    }
    // The same budgets without the efficiency limits (a run at another subgroup size).
    Limits withoutEfficiency() const {
        Limits l = *this;
        l.globalEfficiency.reset();
        l.bankConflicts.reset();
        l.divergentRequests.reset();
        l.divergentRequestsExpr.reset();
        l.globalAtomicsPerWorkgroup.reset();
        l.globalAtomicsPerWorkgroupExpr.reset();
        return l;
    }
};

// A rule of the statement that the trace checks ([[rules]] in puzzle.toml): some buffers are
// written only with atomics, or a thread reads some buffers in one run (no write or atomic of its
// own between its first read of them and its last: its loads all issued before it waits on one),
// or a count of memory accesses per thread or per workgroup stays under a bound. A broken rule
// fails the case, quoting `text`.
enum class RuleCountKind { Reads, Writes, Accesses }; // accesses: reads and writes together
enum class RuleTargetKind { Shared, Global, Buffer }; // every shared array, every buffer, one
enum class RuleScopeKind { Thread, Workgroup };       // counted per thread, or summed per group
// atomic_writes_only, reads_together, or at_most with count, of and per, all judged on the
// trace; or uses, judged on the compiled kernels before anything runs.
enum class RuleCheckKind { AtomicWritesOnly, ReadsTogether, Count, Uses, VolatileCoherent };
// Uses and VolatileCoherent are judged on the compiled kernels, before any case runs; the others
// on each case's trace.
inline bool judgedOnCompiledKernels(RuleCheckKind k) {
    return k == RuleCheckKind::Uses || k == RuleCheckKind::VolatileCoherent;
}

// The names a bound per workgroup may use for the workgroup it counts: its id in x, y and z.
inline constexpr const char* kGroupNames[] = {"group_x", "group_y", "group_z"};

struct RuleDecl {
    std::string text; // the statement's words, quoted in the finding
    RuleCheckKind check = RuleCheckKind::Count;
    // atomic_writes_only, reads_together, volatile_coherent: indices into Puzzle::buffers
    std::vector<size_t> buffers;
    std::optional<Expr> atMost; // at_most (Count): the bound of the count, per case
    RuleCountKind count = RuleCountKind::Writes;
    RuleTargetKind target = RuleTargetKind::Shared;
    size_t buffer = 0; // target Buffer: index into Puzzle::buffers
    RuleScopeKind per = RuleScopeKind::Thread;
    uint32_t fromWorkgroupSize = 0; // applies only to cases whose WG (size in x) is at least this
    uint32_t uses = 0; // Uses: the ShaderFeature bit some kernel must use (kCooperativeMatrix)
    SourceLocation where;
};

// A kernel of the puzzle. A single-kernel puzzle has one, named "kernel", that binds every buffer.
struct KernelDecl {
    std::string name;            // "scan_tiles": the user's file is NAME.comp
    std::string starterPath;     // starter/NAME.comp (single kernel: starter.comp)
    std::string solutionPath;    // solution/NAME.comp (single kernel: solution.comp)
    std::vector<size_t> buffers; // indices into Puzzle::buffers that it binds
};

// A pass of a multi-pass puzzle: one kernel, dispatched `repeat` times (expressions may use the
// repetition index i), with push-constant values set before each dispatch.
struct PassDecl {
    size_t kernel = 0; // index into Puzzle::kernels
    // What its dispatches are called ("exchange (flip)"): two passes of one kernel told apart.
    // Empty: the kernel's name.
    std::string label;
    std::array<Expr, 3> workgroups{Expr::literal(1), Expr::literal(1), Expr::literal(1)};
    Expr repeat = Expr::literal(1);
    std::vector<std::pair<std::string, Expr>> push; // push-constant member -> value
    std::optional<std::array<size_t, 2>> swap; // buffers whose bindings swap between repetitions
    SourceLocation where;
};

// [laps] of a multi-pass puzzle: the whole list of passes runs `repeat` times, one lap after the
// other (pass expressions may use the lap index `lap`), with `swap`'s two buffers trading bindings
// between laps (a radix sort's 8 digits, each lap reading what the last one wrote). ("Round" is
// the time between two barriers; [rounds] and `round` are still read as the old names.)
struct LapsDecl {
    Expr repeat = Expr::literal(1);
    std::optional<std::array<size_t, 2>> swap;
    SourceLocation where;
    std::string table = "[laps]"; // as the file names it ("[rounds]" in older files)
};

// A wrong answer worth naming: when a failing output equals this op's result, say why.
struct PitfallDecl {
    size_t buffer = 0;                  // the output it is about
    std::string op;                     // a reference op
    std::vector<size_t> args;           // buffers it reads
    std::map<std::string, Expr> params; // evaluated per case (N, WG, constants)
    std::string message;
    SourceLocation where;
};

// A peer's time at this puzzle's benchmark ([[peers]] in puzzle.toml): what an expert's kernel
// (a library's, PyTorch's) takes on a named device at the same N, measured by a command in the
// repository. `vkpuzzles bench` shows it beside the learner's kernel on a device of that name.
struct BenchPeer {
    std::string name;   // "torch.softmax"
    std::string device; // as the device names itself: "NVIDIA H200"
    uint64_t n = 0;     // elements of the first input, as `bench --n` counts them
    double ms = 0;      // its median time
    std::string date;   // when it was measured: "2026-11-28"
    std::string how;    // the command that measured it
};

// A forced schedule ([[schedule]] in puzzle.toml): in traced checks, one workgroup is held at its
// first write to a buffer until the others have finished (rewrite/schedule_rewriter.h), so paths
// that otherwise depend on timing (a silent predecessor, one seen only half-published) run every
// time.
struct ScheduleDecl {
    bool afterWrite = false;           // hold = "after_first_write" (else "before_first_write")
    size_t buffer = 0;                 // index into Puzzle::buffers
    std::optional<uint32_t> publisher; // hold the workgroup that gets there in this place (0-based)
    std::optional<uint32_t> index;     // or the one whose first write is buffer[index]
    std::vector<size_t> cases;         // 0-based; empty: every case
    std::string rule;                  // the statement's rule an endless wait breaks, quoted
    SourceLocation where;

    bool appliesTo(size_t caseIndex) const;
};

// A search for the case that breaks a kernel ([[search]] in puzzle.toml, check/case_search.h):
// the check generates case `templateCase` again, `tries` times, at a size of its first input drawn
// from [minN, maxN] and a workgroup size drawn from `workgroupSizes` (x; empty: the case's own),
// with fresh random inputs, and shrinks a failing one to the smallest it can.
struct SearchDecl {
    size_t templateCase = 0; // 0-based
    uint64_t minN = 1, maxN = 1;
    std::vector<uint32_t> workgroupSizes;
    uint32_t tries = 16;
    SourceLocation where;
};

// The decoupled look-back's protocol ([lookback] in puzzle.toml), read by the Look-back view
// (views/lookback.h): the buffer of per-tile status words and how a word packs its flag and
// value, and the buffer whose atomicAdd hands out the tiles (the tickets).
struct LookbackDecl {
    size_t status = 0;                    // index into Puzzle::buffers: the status words
    std::optional<size_t> counter;        // the tickets' buffer; none: a tile is its status index
    uint32_t flagShift = 30;              // flag = word >> flagShift, value = the bits below
    uint32_t aggregate = 1, prefix = 2;   // the flags of AGGREGATE and PREFIX; 0 is "not ready"
    Expr wordsPerTile = Expr::literal(1); // status words per tile (a radix sort's: one per digit)
    SourceLocation where;
};

struct Puzzle {
    std::string folder; // "01-map"
    std::string dir;    // the folder's path
    std::string file;   // path of puzzle.toml
    int number = 0;     // from the folder's "NN-" prefix, 0 when none
    std::string slug;   // "map"
    std::string title;
    std::string track; // "classic"
    int order = 0;     // position in the track
    std::string statement;
    std::vector<std::string> hints;
    std::string starterPath;
    std::string solutionPath;
    double tolerance = 1e-4; // floats: |got - want| <= tolerance * max(1, |want|)
    Limits limits;
    std::vector<BufferDecl> buffers;
    std::vector<ConstantDecl> constants;
    std::vector<TestCase> cases;
    std::vector<KernelDecl> kernels; // one, or several for a multi-pass puzzle
    std::vector<PassDecl> passes;    // empty: one dispatch per case, of the only kernel
    LapsDecl laps;                   // how many times the passes run (default once)
    std::vector<PitfallDecl> pitfalls;
    std::vector<BenchPeer> peers; // [[peers]]: experts' times at the benchmark
    std::vector<RuleDecl> rules;  // [[rules]]: what the statement forbids, checked on the trace
    std::vector<ScheduleDecl> schedules;  // forced schedules, at most one per case
    std::vector<SearchDecl> searches;     // [[search]]: cases generated to find a failing one
    std::optional<LookbackDecl> lookback; // [lookback]: a decoupled look-back to draw
    // 0-based: the case `bench` times (bench_case, else derived: puzzle/bench_case.h), and
    // whether the puzzle named it.
    size_t benchCase = 0;
    bool benchCaseNamed = false;
    // bench_cols: a 2D first input keeps this many columns at the benchmark (0: as square as N
    // allows); bench_square: it stays square (the kernel reads one SIZE for both), so N must be
    // a square; bench_n: the N `bench` takes when none is given.
    uint32_t benchCols = 0;
    bool benchSquare = false;
    uint64_t benchN = uint64_t(1) << 24;
    // What the official solution needs of a device beyond plain compute (puzzle/device_needs.h),
    // from its #extension lines; set by loadPuzzle (empty from parsePuzzle alone).
    DeviceNeeds needs;
    std::string pack;     // "" for the built-in puzzles, else the pack's name (see PuzzleSet)
    std::string packRoot; // the pack's folder, absolute ("" for the built-in puzzles)

    bool multiPass() const { return !passes.empty(); }
    // A puzzle of the detective track: its starter is the broken kernel of a bug report, which
    // may pass some cases and fail on a finding of its own (a race, a rule) rather than on values.
    bool starterIsTheBug() const { return track == "detective"; }
    const ScheduleDecl* scheduleFor(size_t caseIndex) const; // the case's forced schedule, if any
    const BufferDecl* findBuffer(uint32_t binding) const;
    std::optional<size_t> bufferIndex(const std::string& name) const;
    std::string displayName() const; // "1. Map"
    // What names its draft and progress: "01-map" for a built-in puzzle, "PACK/01-reverse" for a
    // pack's, so a pack's 01-reverse never shares a draft with another's.
    std::string key() const;
    // A command line that reaches this puzzle from a shell: "vkpuzzles show map", or for a pack's
    // "vkpuzzles --puzzles '/home/t/pack' show reverse". `rest` follows the puzzle's name.
    std::string command(const std::string& verb, const std::string& rest = "") const;
    std::optional<size_t> firstInput() const; // the buffer whose length is N in expressions
    size_t puzzleCaseCount() const; // the cases of the puzzle file (not the learner's own)
};

// A case with its data materialised: initial contents of every buffer and expected outputs.
struct CaseData {
    std::vector<BufferData> initial;                 // per Puzzle::buffers
    std::vector<std::optional<BufferData>> expected; // per Puzzle::buffers, set for outputs
};

// Whether a case draws some input from a random fill (`fill = "random"`).
bool hasRandomInputs(const TestCase& c);
// The case's random fills drawn from other seeds, each from its own seed and `fresh` (the same
// `fresh` gives the same data again): fresh random inputs beside the puzzle's fixed ones.
void reseedRandomInputs(TestCase& c, uint64_t fresh);

// Generates inputs and computes expected outputs with the reference ops (never a solution).
Result<CaseData> materializeCase(const Puzzle& puzzle, size_t caseIndex);

// Why `slug` cannot name a puzzle (it must be lower-case letters, digits and '-', start with a
// letter and be at most 40 characters), or nothing.
std::optional<std::string> slugError(const std::string& slug);

// A case's named constants: "SIZE = 3, TILE = 4"; none of a hidden case.
std::string constantsText(const Puzzle& p, const TestCase& c);

} // namespace vkp
