#include "puzzle/rule_loader.h"

#include <algorithm>

#include "puzzle/passes.h"
#include "puzzle/puzzle_loader.h"

namespace vkp {
namespace {

// The largest value a limit or bound may take in a case: far beyond any kernel's traffic, small
// enough for the trace's 32-bit counters.
constexpr uint64_t kMaxBound = 1u << 20;

// Names in an expression must be the puzzle's constants (N and WG are always known); a bound per
// workgroup may also name the workgroup (kGroupNames).
void checkNames(const Reader& r, const toml::node* at, const Expr& e, const Puzzle& p,
                bool perWorkgroup = false) {
    for (const std::string& name : e.names()) {
        bool group = std::find(std::begin(kGroupNames), std::end(kGroupNames), name) !=
                     std::end(kGroupNames);
        if (perWorkgroup && group) continue;
        if (std::none_of(p.constants.begin(), p.constants.end(),
                         [&](const ConstantDecl& c) { return c.name == name; }))
            r.fail(at, "unknown name '" + name + "' in \"" + e.text() + "\" (known: N, WG, the " +
                           "puzzle's constants" +
                           (perWorkgroup ? std::string(", group_x, group_y, group_z")
                                         : std::string(group ? "; group_x, group_y and group_z "
                                                               "name the workgroup of a bound "
                                                               "per workgroup"
                                                             : "")) +
                           ")");
    }
}

// The expression's value in the puzzle's case `index`: a division by zero or a value out of
// range fails at the key's line, naming the case.
uint64_t valueInCase(const Reader& r, const toml::node* at, const std::string& key, const Expr& e,
                     const Puzzle& p, size_t index) {
    const TestCase& c = p.cases[index];
    auto names = caseNames(p, c, 0);
    auto v = e.evaluateChecked(caseVars(p, c, names), key);
    std::string inCase = " in case " + std::to_string(index + 1);
    if (!v) r.fail(at, "case " + std::to_string(index + 1) + ": " + v.error().message);
    if (*v > kMaxBound)
        r.fail(at, "'" + key + "' (\"" + e.text() + "\") is " + std::to_string(*v) + inCase +
                       "; it must be between 0 and " + std::to_string(kMaxBound));
    return *v;
}

// One limit: a number as before, or an expression whose largest value over the cases stands
// for it where one figure is shown.
void parseLimit(const Reader& r, const toml::table& t, const char* key, Puzzle& p,
                std::optional<uint32_t>& value, std::optional<Expr>& expr) {
    const toml::node* n = t.get(key);
    if (!n) return;
    if (!n->is_string()) {
        value = r.boundedUint(n, key, 0, kMaxBound);
        return;
    }
    Expr e = parseExprValue(r, n, key);
    checkNames(r, n, e, p);
    uint64_t most = 0;
    for (size_t i = 0; i < p.cases.size(); ++i)
        most = std::max(most, valueInCase(r, n, key, e, p, i));
    value = static_cast<uint32_t>(most);
    expr = std::move(e);
}

std::vector<size_t> bufferList(const Reader& r, const toml::node* n, const std::string& key,
                               const Puzzle& p) {
    const toml::array& a = r.asArray(n, key.c_str());
    if (a.empty()) r.fail(n, "'" + key + "' needs at least one buffer name");
    std::vector<size_t> out;
    for (const toml::node& b : a) {
        std::string name = r.asString(&b, key.c_str());
        auto idx = p.bufferIndex(name);
        if (!idx) r.fail(&b, "no buffer named '" + name + "' in this puzzle");
        out.push_back(*idx);
    }
    return out;
}

void parseCount(const Reader& r, const toml::table& t, RuleDecl& d, const Puzzle& p) {
    d.count = parseEnum<RuleCountKind>(r, t, "count",
                                       {{"reads", RuleCountKind::Reads},
                                        {"writes", RuleCountKind::Writes},
                                        {"accesses", RuleCountKind::Accesses}});
    d.per = parseEnum<RuleScopeKind>(
        r, t, "per", {{"thread", RuleScopeKind::Thread}, {"workgroup", RuleScopeKind::Workgroup}});
    std::string of = r.string(t, "of");
    if (of == "shared")
        d.target = RuleTargetKind::Shared;
    else if (of == "global")
        d.target = RuleTargetKind::Global;
    else if (auto idx = p.bufferIndex(of)) {
        d.target = RuleTargetKind::Buffer;
        d.buffer = *idx;
    } else
        r.fail(t.get("of"), "'of' is \"shared\" (every shared array), \"global\" (every buffer) "
                            "or a buffer's name; this puzzle has no buffer named '" +
                                of + "'");
    const toml::node* n = t.get("at_most");
    d.atMost = parseExprValue(r, n, "at_most");
    checkNames(r, n, *d.atMost, p, d.per == RuleScopeKind::Workgroup);
    for (size_t i = 0; i < p.cases.size(); ++i) // its value in workgroup 0 of each case

        if (p.cases[i].workgroupSize[0] >= d.fromWorkgroupSize)
            valueInCase(r, n, "at_most", *d.atMost, p, i);
}

// What `uses` may name: the ways of computing a statement can ask for by name.
constexpr std::pair<const char*, uint32_t> kUsable[] = {
    {"cooperative_matrix", kCooperativeMatrix},
};

RuleDecl parseRule(const Reader& r, const toml::table& t, const Puzzle& p) {
    r.rejectUnknownKeys(t,
                        {"text", "atomic_writes_only", "reads_together", "at_most", "count", "of",
                         "per", "from_workgroup_size", "uses", "volatile_coherent"},
                        "a [[rules]] entry");
    RuleDecl d;
    d.where = r.where(&t);
    d.text = r.string(t, "text");
    if (d.text.empty()) r.fail(t.get("text"), "a rule's 'text' quotes the statement; it is empty");
    if (const toml::node* f = t.get("from_workgroup_size"))
        d.fromWorkgroupSize = r.boundedUint(f, "from_workgroup_size", 1, kMaxWorkgroupThreads);
    bool atomic = t.get("atomic_writes_only") != nullptr, counted = t.get("at_most") != nullptr,
         together = t.get("reads_together") != nullptr, uses = t.get("uses") != nullptr,
         coherent = t.get("volatile_coherent") != nullptr;
    if (int(atomic) + int(counted) + int(together) + int(uses) + int(coherent) != 1)
        r.fail(&t, "a rule has one of 'atomic_writes_only' (buffers written only with atomics), "
                   "'reads_together' (buffers a thread reads in one run), 'at_most' (with "
                   "'count', 'of' and 'per'), 'uses' (what a kernel must compute with) or "
                   "'volatile_coherent' (buffers a kernel must declare volatile coherent)");
    if (uses) {
        for (const char* k : {"count", "of", "per", "from_workgroup_size"})
            if (t.get(k)) r.fail(t.get(k), std::string("'") + k + "' does not go with 'uses'");
        std::string name = r.string(t, "uses");
        d.check = RuleCheckKind::Uses;
        for (auto [known, feature] : kUsable)
            if (name == known) d.uses = feature;
        if (!d.uses)
            r.fail(t.get("uses"), "'uses' names what a kernel must compute with: "
                                  "\"cooperative_matrix\", not '" +
                                      name + "'");
        return d;
    }
    if (counted) {
        parseCount(r, t, d, p);
        return d;
    }
    std::string key = atomic     ? "atomic_writes_only"
                      : together ? "reads_together"
                                 : "volatile_coherent";
    for (const char* k : {"count", "of", "per"})
        if (t.get(k))
            r.fail(t.get(k),
                   std::string("'") + k + "' goes with 'at_most', not with '" + key + "'");
    d.target = RuleTargetKind::Buffer;
    d.check = atomic     ? RuleCheckKind::AtomicWritesOnly
              : together ? RuleCheckKind::ReadsTogether
                         : RuleCheckKind::VolatileCoherent;
    d.buffers = bufferList(r, t.get(key), key, p);
    return d;
}

} // namespace

void parseLimits(const Reader& r, const toml::table& root, Puzzle& p) {
    const toml::node* n = root.get("limits");
    if (!n) return;
    const toml::table& t = r.asTable(n, "'limits'");
    r.rejectUnknownKeys(t,
                        {"global_reads", "global_writes", "global_efficiency", "bank_conflicts",
                         "divergent_requests", "global_atomics_per_workgroup"},
                        "[limits]");
    Limits& l = p.limits;
    parseLimit(r, t, "global_reads", p, l.globalReads, l.globalReadsExpr);
    parseLimit(r, t, "global_writes", p, l.globalWrites, l.globalWritesExpr);
    parseLimit(r, t, "divergent_requests", p, l.divergentRequests, l.divergentRequestsExpr);
    parseLimit(r, t, "global_atomics_per_workgroup", p, l.globalAtomicsPerWorkgroup,
               l.globalAtomicsPerWorkgroupExpr);
    if (const toml::node* n = t.get("bank_conflicts"))
        l.bankConflicts = r.boundedUint(n, "bank_conflicts", 1, 32);
    if (const toml::node* n = t.get("global_efficiency")) {
        double v = r.asNumber(n, "global_efficiency");
        if (!(v > 0 && v <= 1))
            r.fail(n, "'global_efficiency' is the fraction of touched sectors a request needs, "
                      "above 0 and at most 1.0 (1.0: every request touches the fewest sectors)");
        l.globalEfficiency = v;
    }
}

void parseRules(const Reader& r, const toml::table& root, Puzzle& p) {
    const toml::node* n = root.get("rules");
    if (!n) return;
    if (!n->is_array()) r.fail(n, "'rules' must be an array of tables ([[rules]])");
    for (const toml::node& e : *n->as_array())
        p.rules.push_back(parseRule(r, r.asTable(&e, "each [[rules]] entry"), p));
}

} // namespace vkp
