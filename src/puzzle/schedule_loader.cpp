#include "puzzle/schedule_loader.h"

#include "puzzle/bench_case.h"
#include "puzzle/passes.h"

namespace vkp {
namespace {

ScheduleDecl parseSchedule(const Reader& r, const toml::table& t, const Puzzle& p) {
    r.rejectUnknownKeys(t, {"hold", "buffer", "publisher", "index", "cases", "rule"},
                        "a [[schedule]] entry");
    ScheduleDecl d;
    d.where = r.where(&t);
    d.afterWrite =
        parseEnum<bool>(r, t, "hold", {{"before_first_write", false}, {"after_first_write", true}});
    std::string buffer = r.string(t, "buffer");
    auto idx = p.bufferIndex(buffer);
    if (!idx) r.fail(t.get("buffer"), "'" + buffer + "' is not a buffer of this puzzle");
    d.buffer = *idx;
    const toml::node* publisher = t.get("publisher");
    const toml::node* index = t.get("index");
    if (publisher && index)
        r.fail(index, "give either 'publisher' (the order workgroups get there in) or 'index' "
                      "(the element of their first write), not both");
    if (!publisher && !index)
        r.fail(&t, "a [[schedule]] entry names the workgroup to hold: 'publisher = 1' (the 2nd "
                   "to get there) or 'index = 1' (the one whose first write is to element 1)");
    if (publisher) d.publisher = r.boundedUint(publisher, "publisher", 0, 1 << 20);
    if (index) d.index = r.boundedUint(index, "index", 0, INT32_MAX);
    if (const toml::node* cases = t.get("cases"))
        for (const toml::node& c : r.asArray(cases, "cases"))
            d.cases.push_back(r.boundedUint(&c, "cases", 1, static_cast<int64_t>(p.cases.size())) -
                              1);
    d.rule = r.stringOr(t, "rule", "");
    return d;
}

// A buffer of 32-bit unsigned words, named by `key`.
size_t uintBuffer(const Reader& r, const toml::table& t, const char* key, const Puzzle& p) {
    std::string name = r.string(t, key);
    auto idx = p.bufferIndex(name);
    if (!idx) r.fail(t.get(key), "'" + name + "' is not a buffer of this puzzle");
    if (p.buffers[*idx].type != ElementKind::Uint)
        r.fail(t.get(key), "'" + name + "' holds " + elementKindName(p.buffers[*idx].type) +
                               "; [lookback] reads its words as uint");
    return *idx;
}

} // namespace

void parseLookback(const Reader& r, const toml::table& root, Puzzle& p) {
    const toml::node* n = root.get("lookback");
    if (!n) return;
    const toml::table& t = r.asTable(n, "[lookback]");
    r.rejectUnknownKeys(
        t, {"status", "counter", "flag_shift", "aggregate", "prefix", "words_per_tile"},
        "[lookback]");
    LookbackDecl d;
    d.where = r.where(&t);
    d.status = uintBuffer(r, t, "status", p);
    if (t.get("counter")) d.counter = uintBuffer(r, t, "counter", p);
    if (d.counter == d.status) r.fail(t.get("counter"), "the tickets need a buffer of their own");
    if (const toml::node* s = t.get("flag_shift"))
        d.flagShift = r.boundedUint(s, "flag_shift", 1, 31);
    uint32_t flags = (1u << (32 - d.flagShift)) - 1; // the largest flag a word can hold
    if (const toml::node* a = t.get("aggregate"))
        d.aggregate = r.boundedUint(a, "aggregate", 1, flags);
    if (const toml::node* x = t.get("prefix")) d.prefix = r.boundedUint(x, "prefix", 1, flags);
    if (d.aggregate == d.prefix)
        r.fail(t.get("prefix") ? t.get("prefix") : &t,
               "AGGREGATE and PREFIX need two different flags (both are " +
                   std::to_string(d.prefix) + ")");
    if (const toml::node* w = t.get("words_per_tile")) {
        d.wordsPerTile = parseExprValue(r, w, "words_per_tile");
        for (const TestCase& c : p.cases) {
            uint64_t v = evaluateExpr(r, w, "words_per_tile", d.wordsPerTile,
                                      caseVars(p, c, caseNames(p, c, 0)));
            boundedValue(r, w, "words_per_tile", v, 1, 1 << 16);
        }
    }
    p.lookback = std::move(d);
}

void parseSchedules(const Reader& r, const toml::table& root, Puzzle& p) {
    const toml::node* n = root.get("schedule");
    if (!n) return;
    if (!n->is_array()) r.fail(n, "'schedule' must be an array of tables ([[schedule]])");
    for (const toml::node& e : *n->as_array()) {
        ScheduleDecl d = parseSchedule(r, r.asTable(&e, "each [[schedule]] entry"), p);
        for (size_t c = 0; c < p.cases.size(); ++c)
            if (d.appliesTo(c) && p.scheduleFor(c))
                r.fail(&e, "case " + std::to_string(c + 1) +
                               " already has a forced schedule: a case can have one at most");
        p.schedules.push_back(std::move(d));
    }
}

void parseSearches(const Reader& r, const toml::table& root, Puzzle& p) {
    const toml::node* node = root.get("search");
    if (!node) return;
    for (const toml::node& n : r.asArray(node, "search")) {
        const toml::table& t = r.asTable(&n, "each [[search]] entry");
        r.rejectUnknownKeys(t, {"case", "n", "workgroup_size", "tries"}, "a [[search]] entry");
        SearchDecl d;
        d.where = r.where(&t);
        d.templateCase =
            r.boundedUint(r.required(t, "case"), "case", 1, static_cast<int64_t>(p.cases.size())) -
            1;
        const TestCase& c = p.cases[d.templateCase];
        std::string which = "case " + std::to_string(d.templateCase + 1);
        if (c.hidden) r.fail(t.get("case"), which + " is hidden: a search prints what it finds");
        if (auto fixed = dataFixedAt(p, c))
            r.fail(t.get("case"), which + " cannot be generated at another size: " + *fixed +
                                      "; a search needs a generated first input (iota, "
                                      "constant, random or each) and expected outputs from a "
                                      "reference op or `each`");
        if (!launchFollowsN(p, c))
            r.fail(t.get("case"), which + "'s workgroup count is a number: a search needs it "
                                          "as an expression of N (\"ceil_div(N, WG)\")");
        const toml::array& range = r.array(t, "n");
        if (range.size() != 2)
            r.fail(t.get("n"), "'n' is the range of sizes to draw from: [smallest, largest]");
        d.minN = r.boundedUint(range.get(0), "n", 1, 1 << 24);
        d.maxN = r.boundedUint(range.get(1), "n", 1, 1 << 24);
        if (d.minN > d.maxN) r.fail(t.get("n"), "'n' goes from the smallest size to the largest");
        if (const toml::node* sizes = t.get("workgroup_size"))
            for (const toml::node& s : r.asArray(sizes, "workgroup_size"))
                d.workgroupSizes.push_back(r.boundedUint(&s, "workgroup_size", 1, 1024));
        if (const toml::node* tries = t.get("tries"))
            d.tries = r.boundedUint(tries, "tries", 1, 256);
        p.searches.push_back(d);
    }
}

} // namespace vkp
