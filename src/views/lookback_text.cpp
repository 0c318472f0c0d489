// The look-back model as text (views/lookback.h): its flags' and words' names, and lookbackText,
// a strip of flags per tile and the polls' findings, for `vkpuzzles trace` and the walkthrough.
#include <algorithm>

#include "views/lookback.h"

namespace vkp::views {
namespace {

std::string strip(const LookbackModel& m, const LookbackTile& t, uint32_t slot, uint32_t cols,
                  uint32_t per) {
    std::string s(cols, ' ');
    auto col = [&](uint32_t c) { return std::min(cols - 1, c / per); };
    if (t.ticket || !t.publishes.empty()) {
        uint32_t from = t.ticket ? t.ticketColumn : m.publishes[t.publishes.front()].column;
        for (uint32_t c = from; c < m.columns; ++c) {
            LookbackFlag f = m.wordAt(t.tile, slot, c).flag;
            s[col(c)] = f == LookbackFlag::Prefix      ? 'p'
                        : f == LookbackFlag::Aggregate ? 'a'
                        : f == LookbackFlag::Odd       ? '!'
                                                       : '.';
        }
    }
    for (size_t i : t.polls)
        if (m.polls[i].slot == slot) s[col(m.polls[i].column)] = m.polls[i].fallback ? 'F' : '?';
    for (size_t i : t.publishes) {
        const LookbackPublish& p = m.publishes[i];
        if (p.slot != slot) continue;
        s[col(p.column)] = p.word.flag == LookbackFlag::Prefix      ? 'P'
                           : p.word.flag == LookbackFlag::Aggregate ? 'A'
                           : p.word.flag == LookbackFlag::NotReady  ? '0'
                                                                    : '!';
    }
    if (t.ticket) s[col(t.ticketColumn)] = 'T';
    return s;
}

// The words a poll saw, nearest first, up to the one that ended or held up its walk; the rest
// of its window did not count.
std::string seenText(const LookbackPoll& p) {
    std::string s;
    size_t shown = 0;
    for (const auto& [tile, w] : p.seen) {
        s += (s.empty() ? "" : ", ") + std::string("tile ") + std::to_string(tile) + " " +
             lookbackWordText(w);
        ++shown;
        if (tile == p.prefixAt || tile == p.waitedOn) break;
    }
    if (shown < p.seen.size())
        s +=
            " (and " + std::to_string(p.seen.size() - shown) + " more past it, which do not count)";
    return s;
}

} // namespace

const char* lookbackFlagName(LookbackFlag f) {
    switch (f) {
    case LookbackFlag::NotReady:
        return "not ready";
    case LookbackFlag::Aggregate:
        return "AGGREGATE";
    case LookbackFlag::Prefix:
        return "PREFIX";
    case LookbackFlag::Odd:
        return "odd flag";
    }
    return "?";
}

std::string lookbackWordText(const LookbackWord& w) {
    switch (w.flag) {
    case LookbackFlag::NotReady:
        return w.value ? "not ready (" + std::to_string(w.word) + ")" : "not ready";
    case LookbackFlag::Aggregate:
        return "AGGREGATE " + std::to_string(w.value);
    case LookbackFlag::Prefix:
        return "PREFIX " + std::to_string(w.value);
    case LookbackFlag::Odd:
        return "odd word " + std::to_string(w.word);
    }
    return "?";
}

LookbackWord LookbackModel::wordAt(uint32_t tile, uint32_t slot, uint32_t column) const {
    LookbackWord w;
    if (tile >= tiles.size()) return w;
    for (size_t i : tiles[tile].publishes)
        if (publishes[i].slot == slot && publishes[i].column <= column) w = publishes[i].word;
    return w;
}

const LookbackPublish* LookbackModel::lastPublish(uint32_t tile, uint32_t slot,
                                                  LookbackFlag flag) const {
    const LookbackPublish* out = nullptr;
    for (const LookbackPublish& p : publishes)
        if (p.tile == tile && p.slot == slot && p.word.flag == flag &&
            (!out || p.column >= out->column))
            out = &p;
    return out;
}

std::vector<std::string> lookbackText(const LookbackModel& m, uint32_t slot, int width) {
    if (!m.ok()) return {m.unavailable};
    std::vector<std::string> out;
    uint32_t cols = std::max<uint32_t>(1, m.columns);
    uint32_t per = (cols + uint32_t(std::max(10, width)) - 1) / uint32_t(std::max(10, width));
    uint32_t shown = (cols + per - 1) / per;
    out.push_back("look-back of '" + m.status + "'" +
                  (m.wordsPerTile > 1 ? ", word " + std::to_string(slot) + " of each tile" : "") +
                  ": one line per tile, time left to right in the order the trace implies (" +
                  std::to_string(m.columns) + " steps" +
                  (per > 1 ? ", " + std::to_string(per) + " to a character" : "") + ")");
    out.push_back("  T ticket  . not ready  a AGGREGATE  p PREFIX  (capitals: written then)  "
                  "? polls  F fallback");
    for (const LookbackTile& t : m.tiles)
        out.push_back("  tile " + std::to_string(t.tile) +
                      std::string(t.tile < 10    ? 2
                                  : t.tile < 100 ? 1
                                                 : 0,
                                  ' ') +
                      " |" + strip(m, t, slot, shown, per) + "|");
    for (const LookbackTile& t : m.tiles) {
        std::string head = "tile " + std::to_string(t.tile) + ": ";
        if (!t.workgroup) {
            out.push_back(head + "no workgroup took it");
            continue;
        }
        head += "workgroup " + std::to_string(*t.workgroup) +
                (t.ticket ? " (ticket " + std::to_string(t.tile) + " at step " +
                                std::to_string(t.ticketColumn) + ")"
                          : "");
        out.push_back(head);
        std::vector<std::pair<uint32_t, std::string>> moments; // (step, what), in step order
        for (size_t i : t.publishes) {
            const LookbackPublish& p = m.publishes[i];
            if (p.slot == slot)
                moments.push_back({p.column, "published " + lookbackWordText(p.word) + " = " +
                                                 std::to_string(p.word.word)});
        }
        for (size_t i : t.polls) {
            const LookbackPoll& p = m.polls[i];
            if (p.slot != slot) continue;
            std::string s =
                (p.count > 1 ? std::to_string(p.count) + " polls saw " : "polled ") + seenText(p);
            if (p.prefixAt) s += "; stops at tile " + std::to_string(*p.prefixAt) + "'s PREFIX";
            if (p.waitedOn && !p.fallback) s += "; waits on tile " + std::to_string(*p.waitedOn);
            if (p.fallback)
                s += "; gives up on tile " + std::to_string(*p.waitedOn) +
                     " and sums it itself (fallback)";
            moments.push_back({p.column, s});
        }
        std::stable_sort(moments.begin(), moments.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& [step, what] : moments)
            out.push_back("  step " + std::to_string(step) + ": " + what);
        for (const std::string& pr : t.problems)
            out.push_back("  PROBLEM: " + pr);
        for (const std::string& c : t.carried)
            out.push_back("  carried: " + c);
    }
    for (const std::string& n : m.notes)
        out.push_back("note: " + n);
    return out;
}

} // namespace vkp::views
