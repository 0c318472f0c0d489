// The look-back's judgement (views/lookback.h): what is wrong with each tile, and what a wrong
// PREFIX looks like it counted.
#include <algorithm>

#include "views/lookback_builder.h"

namespace vkp::views {
namespace {

// What a wrong PREFIX looks like it counted: a tile before it twice, one left out, or one in
// place of another (a fallback that summed the wrong tile).
std::string offText(int64_t off, const std::vector<uint32_t>& aggregates, uint32_t tile) {
    auto agg = [&](uint32_t k) {
        return "tile " + std::to_string(k) + "'s " + std::to_string(aggregates[k]);
    };
    for (uint32_t k = 0; k < tile; ++k)
        if (aggregates[k] && off == int64_t(aggregates[k]))
            return ": as if " + agg(k) + " were added twice";
    for (uint32_t k = 0; k < tile; ++k)
        if (aggregates[k] && off == -int64_t(aggregates[k]))
            return ": as if " + agg(k) + " were left out";
    for (uint32_t k = 0; k < tile && k < 256; ++k)
        for (uint32_t l = 0; l < tile && l < 256; ++l)
            if (k != l && aggregates[k] != aggregates[l] &&
                off == int64_t(aggregates[k]) - int64_t(aggregates[l]))
                return ": as if " + agg(k) + " were added in place of " + agg(l);
    return off > 0 ? ": " + std::to_string(off) + " too many"
                   : ": " + std::to_string(-off) + " too few";
}

} // namespace

std::optional<uint32_t> LookbackBuilder::aggregateOf(uint32_t tile, uint32_t slot) const {
    if (const LookbackPublish* a = m_model.lastPublish(tile, slot, LookbackFlag::Aggregate))
        return a->word.value;
    if (tile == 0)
        if (const LookbackPublish* p = m_model.lastPublish(0, slot, LookbackFlag::Prefix))
            return p->word.value;
    return std::nullopt;
}

// What is wrong with each tile: a word never published, a PREFIX that is not the sum of the
// aggregates up to it (with the tile it looks like it counted twice or left out), a wait that
// never ended.
void LookbackBuilder::judge() {
    uint32_t mask = (1u << m_decl.flagShift) - 1;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> wrongFrom; // (tile, slot) -> where it began
    for (LookbackTile& t : m_model.tiles) {
        for (size_t i = 0; i < m_model.publishes.size(); ++i)
            if (m_model.publishes[i].tile == t.tile) t.publishes.push_back(i);
        std::stable_sort(t.publishes.begin(), t.publishes.end(), [&](size_t a, size_t b) {
            return m_model.publishes[a].column < m_model.publishes[b].column;
        });
        for (size_t i = 0; i < m_model.polls.size(); ++i)
            if (m_model.polls[i].tile == t.tile) t.polls.push_back(i);
        for (size_t i : t.publishes)
            if (t.workgroup && m_model.publishes[i].workgroup != *t.workgroup) {
                t.problems.push_back("its word was written by workgroup " +
                                     std::to_string(m_model.publishes[i].workgroup) +
                                     ", which did not take this tile");
                break;
            }
        if (t.stopped) {
            std::string on;
            for (size_t i : t.polls)
                if (m_model.polls[i].waitedOn)
                    on = ", waiting on tile " + std::to_string(*m_model.polls[i].waitedOn);
            t.problems.push_back("its look-back was stopped by the loop budget" + on +
                                 ": it waited without end");
        }
        if (!t.workgroup) continue;
        // A workgroup whose trace ran out may have published after its last record: the note
        // about the dropped records says so, no problem claims it never did.
        uint64_t first = *t.workgroup * m_per;
        auto cut = m_truncated.lower_bound(first);
        bool truncated = cut != m_truncated.end() && *cut < first + m_per;
        for (uint32_t slot = 0; slot < m_model.wordsPerTile && slot < 64; ++slot) {
            std::string which =
                m_model.wordsPerTile > 1 ? " (word " + std::to_string(slot) + ")" : "";
            const LookbackPublish* prefix = m_model.lastPublish(t.tile, slot, LookbackFlag::Prefix);
            bool any = std::any_of(t.publishes.begin(), t.publishes.end(),
                                   [&](size_t i) { return m_model.publishes[i].slot == slot; });
            if ((!any || !prefix) && truncated) continue;
            if (!any) {
                t.problems.push_back("never published" + which +
                                     ": a successor waiting for it has to fall back");
                continue;
            }
            if (!prefix) {
                t.problems.push_back("never published a PREFIX" + which +
                                     ": every successor has to look past it");
                continue;
            }
            uint64_t sum = 0;
            bool known = true;
            std::vector<uint32_t> aggregates;
            for (uint32_t k = 0; k <= t.tile && known; ++k) {
                auto a = aggregateOf(k, slot);
                known = a.has_value();
                aggregates.push_back(a.value_or(0));
                sum += a.value_or(0);
            }
            uint32_t want = static_cast<uint32_t>(sum) & mask;
            if (!known || prefix->word.value == want) continue;
            // Built on the tile before's wrong PREFIX: that tile's error, carried on.
            auto before = wrongFrom.find({t.tile - 1, slot});
            const LookbackPublish* previous =
                t.tile > 0 ? m_model.lastPublish(t.tile - 1, slot, LookbackFlag::Prefix) : nullptr;
            if (before != wrongFrom.end() && previous &&
                ((previous->word.value + aggregates.back()) & mask) == prefix->word.value) {
                wrongFrom[{t.tile, slot}] = before->second;
                if (!t.carriesFrom) t.carriesFrom = before->second;
                t.carried.push_back("published PREFIX " + std::to_string(prefix->word.value) +
                                    which + ", tile " + std::to_string(t.tile - 1) +
                                    "'s wrong PREFIX plus its own AGGREGATE: it carries tile " +
                                    std::to_string(before->second) + "'s error");
                continue;
            }
            wrongFrom[{t.tile, slot}] = t.tile;
            int64_t off = int64_t(prefix->word.value) - int64_t(want);
            std::string why = offText(off, aggregates, t.tile);
            t.problems.push_back("published PREFIX " + std::to_string(prefix->word.value) + which +
                                 ", but the aggregates of tiles 0 to " + std::to_string(t.tile) +
                                 " add up to " + std::to_string(want) + why);
        }
    }
}

} // namespace vkp::views
