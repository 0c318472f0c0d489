#include "check/case_search.h"

#include <algorithm>
#include <random>

#include "base/os.h"
#include "puzzle/bench_case.h"
#include "puzzle/own_case.h"

namespace vkp {
namespace {

// One generated case's failure in a check of it alone; nullopt: it passed.
struct Attempt {
    std::optional<std::string> detail; // what failed first; nullopt: it passed
    std::optional<Error> error;        // the check itself could not run
};

class Searcher {
  public:
    Searcher(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
             const std::vector<KernelSource>& sources, const CheckOptions& options)
        : m_compiler(compiler), m_runner(runner), m_puzzle(puzzle), m_sources(sources),
          m_options(options) {
        m_options.trace = false;
        m_options.onCase = nullptr;
        m_options.onlyCase.reset();
    }

    // Every generated case of one search in one check; the index of the first that fails.
    Result<std::optional<size_t>> firstFailing(const std::vector<TestCase>& cases,
                                               CaseSearchRun& run) {
        Puzzle all = m_puzzle;
        CheckOptions o = m_options;
        o.someCases.clear();
        for (const TestCase& c : cases) {
            o.someCases.push_back(all.cases.size());
            all.cases.push_back(c);
        }
        CheckReport r = checkProgram(m_compiler, m_runner, all, m_sources, o);
        if (r.error) return *r.error;
        for (const CaseOutcome& c : r.cases) {
            ++run.casesRun;
            if (!c.pass) return std::optional<size_t>(c.index - m_puzzle.cases.size());
        }
        return std::optional<size_t>();
    }

    Attempt attempt(const TestCase& c) {
        Puzzle one = withCase(m_puzzle, c);
        CheckOptions o = m_options;
        o.someCases = {one.cases.size() - 1};
        CheckReport r = checkProgram(m_compiler, m_runner, one, m_sources, o);
        Attempt a;
        if (r.error)
            a.error = r.error;
        else if (!r.cases.empty() && !r.cases.front().pass)
            a.detail = caseFailureDetail(one, r.cases.front());
        return a;
    }

    const Puzzle& puzzle() const { return m_puzzle; }

  private:
    const Compiler& m_compiler;
    DeviceRunner& m_runner;
    const Puzzle& m_puzzle;
    const std::vector<KernelSource>& m_sources;
    CheckOptions m_options;
};

// The values of a small case's inputs, as `run --input` reads them.
std::vector<std::pair<std::string, std::string>> printedInputs(const Puzzle& p, const TestCase& c) {
    Puzzle one = withCase(p, c);
    auto data = materializeCase(one, one.cases.size() - 1);
    if (!data) return {};
    std::vector<std::pair<std::string, std::string>> out;
    for (size_t b = 0; b < p.buffers.size(); ++b) {
        if (p.buffers[b].role != RoleKind::Input) continue;
        const BufferData& d = data->initial.at(b);
        if (d.shape.count() > kFoundCaseValues) return {};
        out.emplace_back(p.buffers[b].name, valuesText(d, p.buffers[b].dims));
    }
    return out;
}

struct Draw {
    uint64_t n = 0;
    uint32_t workgroupSize = 0;
    uint64_t seed = 0;
};

} // namespace

bool caseSearchApplies(const Puzzle& puzzle, const CheckReport& report) {
    if (puzzle.searches.empty() || !report.compiled() || report.error ||
        hasErrors(report.diagnostics) || report.reached != StageKind::Done)
        return false;
    return std::none_of(report.cases.begin(), report.cases.end(),
                        [](const CaseOutcome& c) { return c.error.has_value(); });
}

Result<TestCase> searchCase(const Puzzle& puzzle, const SearchDecl& search, uint64_t n,
                            uint32_t workgroupSize, uint64_t seed) {
    Puzzle sized = puzzle;
    TestCase& t = sized.cases.at(search.templateCase);
    if (workgroupSize) t.workgroupSize[0] = workgroupSize;
    auto c = caseAtSize(sized, search.templateCase, n);
    if (!c) return c.error();
    reseedRandomInputs(*c, seed);
    c->name = "like case " + std::to_string(search.templateCase + 1) +
              ", N = " + std::to_string(n) + ", workgroups of " + dimsText(c->workgroupSize);
    c->hidden = false;
    return c;
}

void searchCases(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                 const std::vector<KernelSource>& sources, const CheckOptions& options,
                 uint64_t seed, CheckReport& report) {
    if (!caseSearchApplies(puzzle, report)) return;
    Searcher searcher(compiler, runner, puzzle, sources, options);
    CaseSearchRun run;
    run.seed = seed;
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 0x5EA4C4);
    for (size_t k = 0; k < puzzle.searches.size() && !run.found && !run.error; ++k) {
        if (options.stopRequested && options.stopRequested()) return;
        const SearchDecl& s = puzzle.searches[k];
        uint32_t own = puzzle.cases[s.templateCase].workgroupSize[0];
        std::vector<Draw> draws;
        std::vector<TestCase> cases;
        for (uint32_t t = 0; t < s.tries; ++t) {
            Draw d;
            d.n = std::uniform_int_distribution<uint64_t>(s.minN, s.maxN)(rng);
            d.workgroupSize = s.workgroupSizes.empty()
                                  ? own
                                  : s.workgroupSizes[std::uniform_int_distribution<size_t>(
                                        0, s.workgroupSizes.size() - 1)(rng)];
            d.seed = rng() % 1000000000ull;
            auto c = searchCase(puzzle, s, d.n, d.workgroupSize, d.seed);
            if (!c) { // the puzzle's ranges allow a size its case cannot take: its author's to fix
                run.error = Error{ErrorKind::PuzzleFile,
                                  "search " + std::to_string(k + 1) + " (" + s.where.str() +
                                      ") at N = " + std::to_string(d.n) + ": " + c.error().message};
                break;
            }
            draws.push_back(d);
            cases.push_back(std::move(*c));
        }
        if (run.error) break;
        auto failing = searcher.firstFailing(cases, run);
        if (!failing) {
            run.error = failing.error();
            break;
        }
        if (!*failing) continue;
        // Shrink: a smaller size while it fails (halving the step), then a smaller workgroup.
        Draw best = draws[**failing];
        FoundCase found;
        found.search = k;
        found.templateCase = s.templateCase;
        found.foundN = best.n;
        found.foundWorkgroupSize = cases[**failing].workgroupSize;
        Attempt first = searcher.attempt(cases[**failing]);
        found.detail = first.detail.value_or("wrong");
        auto fails = [&](uint64_t n, uint32_t wg) -> bool {
            if (found.shrinkRuns >= 48) return false;
            auto c = searchCase(puzzle, s, n, wg, best.seed);
            if (!c) return false;
            ++found.shrinkRuns;
            Attempt a = searcher.attempt(*c);
            if (!a.detail) return false;
            found.detail = *a.detail;
            return true;
        };
        auto shrinkN = [&] {
            for (uint64_t step = (best.n - s.minN + 1) / 2; step >= 1 && best.n > s.minN;) {
                uint64_t n = best.n - std::min(step, best.n - s.minN);
                if (fails(n, best.workgroupSize))
                    best.n = n;
                else
                    step /= 2;
            }
        };
        shrinkN();
        std::vector<uint32_t> smaller = s.workgroupSizes;
        std::sort(smaller.begin(), smaller.end());
        for (uint32_t wg : smaller)
            if (wg < best.workgroupSize && fails(best.n, wg)) {
                best.workgroupSize = wg;
                shrinkN();
                break;
            }
        // The detail is that of the last run that failed: the shrunk case's.
        auto shrunk = searchCase(puzzle, s, best.n, best.workgroupSize, best.seed);
        if (shrunk) {
            found.n = best.n;
            found.workgroupSize = shrunk->workgroupSize;
            found.workgroups = shrunk->workgroups;
            Attempt last = searcher.attempt(*shrunk);
            if (last.detail) found.detail = *last.detail;
            found.inputs = printedInputs(puzzle, *shrunk);
        }
        run.found = std::move(found);
    }
    report.search = std::move(run);
}

std::string foundCaseCommand(const FoundCase& found, const std::string& runCommand) {
    if (found.inputs.empty()) return "";
    std::string cmd = runCommand + " --case " + std::to_string(found.templateCase + 1);
    for (const auto& [name, values] : found.inputs)
        cmd += " --input " + os::shellWord(name + "=" + values);
    cmd += " --workgroup-size " + dimsListText(found.workgroupSize);
    return cmd;
}

} // namespace vkp
