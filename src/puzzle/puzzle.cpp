#include "puzzle/puzzle.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "base/os.h"
#include "puzzle/element_expr.h"
#include "reference/reference_ops.h"

namespace vkp {
namespace {

// splitmix64: tiny, well mixed, and the same sequence on every platform and standard library.
class SplitMix {
  public:
    explicit SplitMix(uint64_t seed) : m_state(seed) {}
    uint64_t next() {
        uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    int64_t between(int64_t lo, int64_t hi) { // inclusive
        uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
        return lo + static_cast<int64_t>(span == 0 ? next() : next() % span);
    }

  private:
    uint64_t m_state;
};

BufferData fill(const DataSpec& d, ElementKind type) {
    BufferData b = BufferData::zeros(type, d.shape);
    uint64_t n = b.shape.count();
    switch (d.kind) {
    case DataSpec::Kind::Values:
        for (uint64_t i = 0; i < n; ++i)
            b.set(i, d.values[i]);
        break;
    case DataSpec::Kind::Iota:
        for (uint64_t i = 0; i < n; ++i)
            b.set(i, d.start + d.step * static_cast<double>(i));
        break;
    case DataSpec::Kind::Constant:
        for (uint64_t i = 0; i < n; ++i)
            b.set(i, d.value);
        break;
    case DataSpec::Kind::Random: {
        SplitMix rng(d.seed);
        for (uint64_t i = 0; i < n; ++i)
            b.set(i, static_cast<double>(rng.between(d.min, d.max)));
        break;
    }
    case DataSpec::Kind::Op:
        break; // computed by materializeCase
    case DataSpec::Kind::Unchecked:
        break; // zeros: only the size matters
    case DataSpec::Kind::Each:
        break; // computed by materializeCase
    }
    return b;
}

} // namespace

const char* roleKindName(RoleKind role) {
    switch (role) {
    case RoleKind::Input:
        return "input";
    case RoleKind::Output:
        return "output";
    case RoleKind::Scratch:
        return "scratch";
    }
    return "?";
}

std::string cellName(const BufferDecl& b, const Shape& s, uint64_t i) {
    if (s.dims.size() == 2)
        return b.name + "[" + std::to_string(i / s.cols()) + "][" + std::to_string(i % s.cols()) +
               "]";
    return b.name + "[" + std::to_string(i) + "]";
}

bool hasRandomInputs(const TestCase& c) {
    for (const std::optional<DataSpec>& d : c.data)
        if (d && d->kind == DataSpec::Kind::Random) return true;
    return false;
}

void reseedRandomInputs(TestCase& c, uint64_t fresh) {
    for (std::optional<DataSpec>& d : c.data)
        if (d && d->kind == DataSpec::Kind::Random) {
            uint64_t z = d->seed ^ (fresh + 0x9E3779B97F4A7C15ull); // splitmix64's mix
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            d->seed = z ^ (z >> 31);
        }
}

std::string dimsText(const std::array<uint32_t, 3>& d) {
    int n = d[2] > 1 ? 3 : d[1] > 1 ? 2 : 1;
    std::string s = "(";
    for (int i = 0; i < n; ++i)
        s += (i ? ", " : "") + std::to_string(d[i]);
    return s + ")";
}

uint64_t TestCase::threadCount() const {
    uint64_t n = 1;
    for (int i = 0; i < 3; ++i)
        n *= uint64_t(workgroupSize[i]) * workgroups[i];
    return n;
}

const BufferDecl* Puzzle::findBuffer(uint32_t binding) const {
    for (const BufferDecl& b : buffers)
        if (b.binding == binding) return &b;
    return nullptr;
}

std::optional<size_t> Puzzle::bufferIndex(const std::string& name) const {
    for (size_t i = 0; i < buffers.size(); ++i)
        if (buffers[i].name == name) return i;
    return std::nullopt;
}

std::optional<size_t> Puzzle::firstInput() const {
    for (size_t i = 0; i < buffers.size(); ++i)
        if (buffers[i].role == RoleKind::Input) return i;
    return std::nullopt;
}

size_t Puzzle::puzzleCaseCount() const {
    size_t n = 0;
    for (const TestCase& c : cases)
        n += !c.own;
    return n;
}

std::string Puzzle::displayName() const {
    return (number > 0 ? std::to_string(number) + ". " : std::string()) + title;
}

std::string Puzzle::key() const {
    return pack.empty() ? folder : pack + "/" + folder;
}

std::string Puzzle::command(const std::string& verb, const std::string& rest) const {
    std::string line = "vkpuzzles ";
    if (!packRoot.empty()) line += "--puzzles " + os::shellWord(packRoot) + " ";
    line += verb + " " + slug;
    return rest.empty() ? line : line + " " + rest;
}

namespace {

// What a case's `each` expressions may read: N, WG and the case's constants (buffers are added
// by the caller).
ElementScope elementScope(const Puzzle& puzzle, const TestCase& c) {
    ElementScope s;
    auto first = puzzle.firstInput();
    s.n = first && c.data[*first] ? c.data[*first]->shape.count() : 0;
    s.wg = c.workgroupSize[0];
    for (const ConstantDecl& d : puzzle.constants)
        if (auto it = c.constants.find(d.id); it != c.constants.end())
            s.constants[d.name] = it->second;
    return s;
}

// The contents of buffer `b` in a case: its fill, its `each` expression, or its reference op
// (over `initial`, the inputs' contents). An error names the case and the buffer.
Result<BufferData> computed(const Puzzle& puzzle, size_t caseIndex, size_t b,
                            const ElementScope& scope, const std::vector<BufferData>& initial) {
    const TestCase& c = puzzle.cases[caseIndex];
    const DataSpec& d = *c.data[b];
    const BufferDecl& decl = puzzle.buffers[b];
    auto failure = [&](const std::string& message) {
        std::string label = "case " + std::to_string(caseIndex + 1) +
                            (c.name.empty() ? "" : " (" + c.name + ")") + ", " +
                            (decl.role == RoleKind::Output ? "expected." : "inputs.") + decl.name;
        return Error{ErrorKind::PuzzleFile, label + ": " + message, d.where};
    };
    if (d.kind == DataSpec::Kind::Each) {
        ElementScope typed = scope;
        typed.type = decl.type;
        auto v = evaluateEach(*d.each, d.shape, typed);
        if (!v) return failure(v.error().message);
        return std::move(*v);
    }
    if (d.kind != DataSpec::Kind::Op) return fill(d, decl.type);
    std::vector<const BufferData*> args;
    for (size_t a : d.args)
        args.push_back(&initial[a]);
    if (auto bad = referenceOpValueError(d.op, args, d.params)) return failure(d.op + ": " + *bad);
    BufferData e = runReferenceOp(d.op, args, d.params, decl.type);
    e.shape = d.shape; // a given shape may re-view the op's result (e.g. as 2D)
    return e;
}

} // namespace

Result<CaseData> materializeCase(const Puzzle& puzzle, size_t caseIndex) {
    if (caseIndex >= puzzle.cases.size())
        return Error{ErrorKind::Usage, "case " + std::to_string(caseIndex + 1) +
                                           " does not exist; " + puzzle.slug + " has " +
                                           std::to_string(puzzle.cases.size()) + " cases"};
    const TestCase& c = puzzle.cases[caseIndex];
    CaseData data;
    data.initial.resize(puzzle.buffers.size());
    data.expected.resize(puzzle.buffers.size());
    ElementScope inputScope = elementScope(puzzle, c);
    for (const BufferDecl& b : puzzle.buffers)
        inputScope.unreadable.insert(b.name);
    for (size_t i = 0; i < puzzle.buffers.size(); ++i) {
        const BufferDecl& b = puzzle.buffers[i];
        if (b.role == RoleKind::Output) continue;
        auto filled = computed(puzzle, caseIndex, i, inputScope, {});
        if (!filled) return filled.error();
        data.initial[i] = std::move(*filled);
    }
    ElementScope outputScope = elementScope(puzzle, c);
    for (size_t i = 0; i < puzzle.buffers.size(); ++i)
        if (puzzle.buffers[i].role != RoleKind::Output)
            outputScope.buffers[puzzle.buffers[i].name] = &data.initial[i];
    for (size_t i = 0; i < puzzle.buffers.size(); ++i) {
        const BufferDecl& b = puzzle.buffers[i];
        if (b.role != RoleKind::Output) continue;
        auto e = computed(puzzle, caseIndex, i, outputScope, data.initial);
        if (!e) return e.error();
        data.expected[i] = std::move(*e);
        data.initial[i] = b.zeroed ? BufferData::zeros(b.type, data.expected[i]->shape)
                                   : BufferData::poisoned(b.type, data.expected[i]->shape);
    }
    return data;
}

std::optional<std::string> slugError(const std::string& slug) {
    constexpr size_t kMaxSlug = 40;
    if (slug.empty()) return "the slug is empty";
    if (slug.size() > kMaxSlug)
        return "the slug '" + slug.substr(0, kMaxSlug) + "...' is longer than " +
               std::to_string(kMaxSlug) + " characters";
    bool allowed = std::all_of(slug.begin(), slug.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
    if (!allowed || !(slug[0] >= 'a' && slug[0] <= 'z') || slug.back() == '-')
        return "'" + slug +
               "' is not a slug: use lower-case letters, digits and '-', starting with a letter "
               "(e.g. reverse-double)";
    return std::nullopt;
}

bool ScheduleDecl::appliesTo(size_t caseIndex) const {
    return cases.empty() || std::find(cases.begin(), cases.end(), caseIndex) != cases.end();
}

const ScheduleDecl* Puzzle::scheduleFor(size_t caseIndex) const {
    for (const ScheduleDecl& s : schedules)
        if (s.appliesTo(caseIndex)) return &s;
    return nullptr;
}

std::string constantsText(const Puzzle& p, const TestCase& c) {
    std::string s;
    if (c.hidden) return s;
    for (const ConstantDecl& k : p.constants) {
        auto it = c.constants.find(k.id);
        if (it == c.constants.end()) continue;
        s += (s.empty() ? "" : ", ") + k.name + " = " + std::to_string(it->second);
    }
    return s;
}

} // namespace vkp
