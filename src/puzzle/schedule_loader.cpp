#include "puzzle/schedule_loader.h"

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

} // namespace

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

} // namespace vkp
