// The look-back model (views/lookback.h) made from a trace: lookbackModel, the status words
// decoded, and the moments found in the trace: each workgroup's ticket and tile, the status words'
// writes (publishes) and the polls of other tiles' words (lookback_order.cpp places them in time,
// lookback_judge.cpp finds what is wrong with each tile).
#include "views/lookback.h"

#include <algorithm>
#include <map>

#include "puzzle/passes.h"
#include "views/lookback_builder.h"

namespace vkp::views {
namespace {

// How far a word has got: a read that saw more of it shows it was published by then.
int progress(LookbackFlag f) {
    switch (f) {
    case LookbackFlag::NotReady:
        return 0;
    case LookbackFlag::Odd:
        return 1;
    case LookbackFlag::Aggregate:
        return 2;
    case LookbackFlag::Prefix:
        return 3;
    }
    return 0;
}

bool sameWords(const std::vector<std::pair<uint32_t, LookbackWord>>& a,
               const std::vector<std::pair<uint32_t, LookbackWord>>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].first != b[i].first || a[i].second.word != b[i].second.word) return false;
    return true;
}

} // namespace

LookbackModel LookbackBuilder::build() {
    m_model.status = m_puzzle.buffers[m_decl.status].name;
    if (!findVariables()) return std::move(m_model);
    m_per = std::max(1u, m_trace.launch.invocationsPerGroup());
    m_groups = m_trace.threads.size() / m_per;
    uint64_t wpt =
        m_decl.wordsPerTile.evaluate(caseVars(m_puzzle, m_case, caseNames(m_puzzle, m_case, 0)));
    m_model.wordsPerTile = static_cast<uint32_t>(std::clamp<uint64_t>(wpt, 1, 1 << 16));
    m_atomics = atomicOpsFromSource(m_trace.source);
    scan();
    assignTiles();
    makeTiles();
    makePublishes();
    makePolls();
    order();
    judge();
    return std::move(m_model);
}

bool LookbackBuilder::findVariables() {
    for (size_t v = 0; v < m_trace.variables.size(); ++v) {
        const TraceVariableInfo& info = m_trace.variables[v];
        if (info.decl.shared || info.puzzleBuffer < 0) continue;
        if (size_t(info.puzzleBuffer) == m_decl.status) m_status = static_cast<uint32_t>(v);
        if (m_decl.counter && size_t(info.puzzleBuffer) == *m_decl.counter)
            m_counter = static_cast<uint32_t>(v);
    }
    if (!m_status)
        m_model.unavailable = "this dispatch does not use '" + m_model.status +
                              "', the buffer of the look-back's status words";
    return m_status.has_value();
}

AtomicOpKind LookbackBuilder::opOf(const TraceEvent& e, bool counter) const {
    auto it = m_atomics.find(e.line);
    if (it != m_atomics.end()) return it->second;
    return counter ? AtomicOpKind::Add : AtomicOpKind::Exchange;
}

// Collects the tickets, the status accesses and the threads the loop budget stopped.
void LookbackBuilder::scan() {
    m_tickets.assign(m_groups, {});
    m_stopped.assign(m_groups, false);
    std::map<uint64_t, size_t> prints;
    for (const PrintfRecord& p : m_trace.prints)
        ++prints[p.invocation];
    for (uint64_t inv = 0; inv < m_groups * m_per; ++inv) {
        uint64_t g = inv / m_per;
        const auto& events = m_trace.threads[inv];
        // Its records filled its slots: what it did after them is not in the trace.
        if (m_trace.dropped && m_trace.slotsPerInvocation &&
            events.size() + prints[inv] >= m_trace.slotsPerInvocation)
            m_truncated.insert(inv);
        for (uint32_t i = 0; i < events.size(); ++i) {
            const TraceEvent& e = events[i];
            if (e.kind == TraceEventKind::LoopBudget) m_stopped[g] = true;
            if (m_counter && e.variable == *m_counter && e.kind == TraceEventKind::Atomic) {
                uint32_t after = applyAtomic(opOf(e, true), ElementKind::Uint, e.value, e.extra);
                m_counterAtomics.push_back({{inv, i}, g, e.index, after, e.value, e.round});
                m_tickets[g].push_back(m_counterAtomics.size() - 1);
            }
            if (e.variable != m_status) continue;
            StatusAccess a{{inv, i}, g, e.index, e.value, std::nullopt, e.round};
            if (e.kind == TraceEventKind::Read) {
                m_reads.push_back(a);
            } else if (e.kind == TraceEventKind::Write) {
                m_writes.push_back(a);
            } else if (e.kind == TraceEventKind::Atomic) {
                uint32_t after = applyAtomic(opOf(e, false), ElementKind::Uint, e.value, e.extra);
                a.word = e.value; // what it found: an atomic that changes nothing only reads
                if (after != e.value) {
                    a.word = after;
                    a.old = e.value;
                    m_writes.push_back(a);
                } else {
                    m_reads.push_back(a);
                }
            }
        }
    }
}

uint32_t LookbackBuilder::rawTile(uint32_t index) const {
    return index / m_model.wordsPerTile;
}

uint32_t LookbackBuilder::slotOf(uint32_t index) const {
    return index % m_model.wordsPerTile;
}

// The tile of a status element in this dispatch, if it is one of its tiles.
std::optional<uint32_t> LookbackBuilder::tileOf(uint32_t index) const {
    int64_t t = int64_t(rawTile(index)) - m_offset;
    if (t < 0 || t >= int64_t(m_tileCount)) return std::nullopt;
    return static_cast<uint32_t>(t);
}

// Each workgroup's tile: its ticket (the value its first atomic on the counter found), else
// the tile of its first status write. The status words of one dispatch may start past 0 (a
// radix sort's round r uses the words after the earlier rounds'): that offset is what most
// ticket holders' writes agree on.
void LookbackBuilder::assignTiles() {
    m_groupTile.assign(m_groups, std::nullopt);
    std::map<int64_t, uint32_t> votes;
    for (const StatusAccess& w : m_writes)
        if (!m_tickets[w.group].empty())
            ++votes[int64_t(rawTile(w.index)) -
                    int64_t(m_counterAtomics[m_tickets[w.group].front()].old.value_or(0))];
    uint32_t best = 0;
    for (auto [offset, n] : votes)
        if (n > best) best = n, m_offset = offset;
    uint32_t many = 0;
    for (uint64_t g = 0; g < m_groups; ++g) {
        if (!m_tickets[g].empty()) {
            m_groupTile[g] = m_counterAtomics[m_tickets[g].front()].old.value_or(0);
            if (m_tickets[g].size() > 1) ++many;
            continue;
        }
        for (const StatusAccess& w : m_writes)
            if (w.group == g && int64_t(rawTile(w.index)) >= m_offset) {
                m_groupTile[g] = static_cast<uint32_t>(int64_t(rawTile(w.index)) - m_offset);
                break;
            }
        if (!m_groupTile[g] && !m_counter) m_groupTile[g] = static_cast<uint32_t>(g);
    }
    if (many)
        m_model.notes.push_back(std::to_string(many) +
                                " workgroup(s) took more than one ticket: each row shows the "
                                "first");
    uint64_t count = m_groups;
    for (uint64_t g = 0; g < m_groups; ++g)
        if (m_groupTile[g]) count = std::max<uint64_t>(count, uint64_t(*m_groupTile[g]) + 1);
    for (const StatusAccess& w : m_writes)
        if (int64_t(rawTile(w.index)) >= m_offset)
            count = std::max<uint64_t>(count, uint64_t(rawTile(w.index) - m_offset) + 1);
    if (count > kLookbackMaxTiles)
        m_model.notes.push_back("tiles past " + std::to_string(kLookbackMaxTiles) +
                                " are left out (" + std::to_string(count) + " in all)");
    m_tileCount = static_cast<uint32_t>(std::min<uint64_t>(count, kLookbackMaxTiles));
}

void LookbackBuilder::makeTiles() {
    m_model.tiles.resize(m_tileCount);
    for (uint32_t t = 0; t < m_tileCount; ++t)
        m_model.tiles[t].tile = t;
    for (uint64_t g = 0; g < m_groups; ++g) {
        if (!m_groupTile[g] || *m_groupTile[g] >= m_tileCount) continue;
        LookbackTile& tile = m_model.tiles[*m_groupTile[g]];
        tile.stopped = tile.stopped || m_stopped[g];
        if (tile.workgroup && *tile.workgroup != g) {
            tile.problems.push_back("taken by two workgroups, " + std::to_string(*tile.workgroup) +
                                    " and " + std::to_string(g) + ": one of them shows here");
            continue;
        }
        tile.workgroup = g;
        if (!m_tickets[g].empty()) {
            tile.ticket = m_counterAtomics[m_tickets[g].front()].at;
            m_ticketNode[g] = addNode(Node::Kind::Ticket, tile.tile, g);
            touch(m_ticketNode[g], *tile.ticket);
        }
    }
    if (m_counter)
        for (uint64_t g = 0; g < m_groups; ++g)
            if (m_tickets[g].empty() && !m_trace.threads[g * m_per].empty()) {
                m_model.notes.push_back("workgroup " + std::to_string(g) +
                                        " took no ticket from '" +
                                        m_puzzle.buffers[*m_decl.counter].name + "'");
                break;
            }
}

void LookbackBuilder::makePublishes() {
    bool outside = false;
    for (size_t i = 0; i < m_writes.size(); ++i) {
        const StatusAccess& w = m_writes[i];
        auto tile = tileOf(w.index);
        if (!tile) {
            outside = true;
            continue;
        }
        LookbackPublish p;
        p.tile = *tile;
        p.slot = slotOf(w.index);
        p.index = w.index;
        p.word = decodeLookbackWord(m_decl, w.word);
        p.workgroup = w.group;
        p.access = w.at;
        m_model.publishes.push_back(p);
        uint32_t node = addNode(Node::Kind::Publish, m_model.publishes.size() - 1, w.group);
        touch(node, w.at);
        m_publishNode.push_back(node);
        m_writeOfPublish.push_back(i);
    }
    if (outside)
        m_model.notes.push_back("some writes of '" + m_model.status +
                                "' fall outside this dispatch's tiles and are left out");
}

// A workgroup's reads of other tiles' words, as polls: each thread's k-th poll of a slot
// belongs to the workgroup's poll k of that slot (the lanes of a subgroup that poll a window
// of tiles together). A thread's reads are one poll when each follows the one before it with
// nothing between, further back (a window read by one thread, clamped at tile 0); polls in a
// row that saw the same words become one run.
void LookbackBuilder::makePolls() {
    struct Cursor {
        uint32_t k = 0, tile = 0, event = 0;
        bool started = false;
    };
    std::map<std::tuple<uint64_t, uint32_t, uint32_t>, std::vector<size_t>> polls;
    std::map<std::pair<uint64_t, uint32_t>, Cursor> perThread; // (invocation, slot)
    for (size_t r = 0; r < m_reads.size(); ++r) {
        const StatusAccess& a = m_reads[r];
        auto tile = tileOf(a.index);
        auto own = m_groupTile[a.group];
        if (!tile || !own || *tile == *own) continue;
        uint32_t slot = slotOf(a.index);
        Cursor& c = perThread[{a.at.invocation, slot}];
        bool sameWalk = c.started && a.at.event == c.event + 1 &&
                        (*tile < c.tile || (*tile == 0 && c.tile == 0));
        if (c.started && !sameWalk) ++c.k;
        c.started = true;
        c.tile = *tile;
        c.event = a.at.event;
        polls[{a.group, slot, c.k}].push_back(r);
    }
    // A thread whose slots ran out recorded fewer polls than the lanes polling with it: the
    // polls past its last are incomplete, and left out.
    std::map<std::pair<uint64_t, uint32_t>, uint32_t> complete; // (group, slot) -> polls
    for (const auto& [key, cursor] : perThread)
        if (m_truncated.count(key.first)) {
            auto at = std::make_pair(key.first / m_per, key.second);
            uint32_t n = cursor.k; // its last poll may be cut short
            complete[at] = complete.count(at) ? std::min(complete[at], n) : n;
        }
    if (!complete.empty())
        m_model.notes.push_back("the trace ran out of room for some polling threads (" +
                                std::to_string(m_trace.dropped) +
                                " records dropped): their last polls and writes are not shown");
    for (auto it = polls.begin(); it != polls.end();) {
        auto [group, slot, k] = it->first;
        auto cut = complete.find({group, slot});
        it = cut != complete.end() && k >= cut->second ? polls.erase(it) : std::next(it);
    }
    std::optional<size_t> run; // the run the next poll may join
    std::pair<uint64_t, uint32_t> runKey{UINT64_MAX, 0};
    for (auto& [key, reads] : polls) {
        auto [group, slot, k] = key;
        std::map<uint32_t, std::pair<LookbackWord, size_t>, std::greater<>> seen;
        for (size_t r : reads) {
            LookbackWord w = decodeLookbackWord(m_decl, m_reads[r].word);
            uint32_t tile = *tileOf(m_reads[r].index);
            auto it = seen.find(tile);
            if (it == seen.end() || progress(w.flag) > progress(it->second.first.flag))
                seen[tile] = {w, r};
        }
        LookbackPoll p;
        p.workgroup = group;
        p.tile = *m_groupTile[group];
        p.slot = slot;
        for (auto& [tile, w] : seen)
            p.seen.push_back({tile, w.first});
        p.access = m_reads[reads.front()].at;
        if (run && runKey == std::make_pair(group, slot) &&
            sameWords(m_model.polls[*run].seen, p.seen)) {
            ++m_model.polls[*run].count;
            for (size_t r : reads)
                addPollRead(r);
            continue;
        }
        interpret(p);
        m_model.polls.push_back(p);
        run = m_model.polls.size() - 1;
        runKey = {group, slot};
        m_pollNode.push_back(addNode(Node::Kind::Poll, m_model.polls.size() - 1, group));
        m_pollReads.emplace_back();
        for (size_t r : reads)
            addPollRead(r);
    }
    // A run that waited on a tile, followed by one of the same walk that no longer looks at
    // it or anything after it, went on without it: the fallback.
    for (size_t i = 0; i < m_model.polls.size(); ++i) {
        LookbackPoll& p = m_model.polls[i];
        if (!p.waitedOn) continue;
        bool last = i + 1 == m_model.polls.size() ||
                    m_model.polls[i + 1].workgroup != p.workgroup ||
                    m_model.polls[i + 1].slot != p.slot;
        if (!last) {
            const LookbackPoll& next = m_model.polls[i + 1];
            p.fallback = std::all_of(next.seen.begin(), next.seen.end(),
                                     [&](const auto& s) { return s.first < *p.waitedOn; });
        } else {
            p.fallback = !m_stopped[p.workgroup] && publishedPrefix(p.workgroup, p.slot);
        }
    }
}

void LookbackBuilder::addPollRead(size_t r) {
    m_pollReads.back().push_back(r);
    touch(m_pollNode.back(), m_reads[r].at);
}

void LookbackBuilder::interpret(LookbackPoll& p) {
    for (const auto& [tile, w] : p.seen) {
        if (w.flag == LookbackFlag::Prefix) {
            p.prefixAt = tile;
            return;
        }
        if (w.flag == LookbackFlag::NotReady) {
            p.waitedOn = tile;
            return;
        }
    }
}

bool LookbackBuilder::publishedPrefix(uint64_t group, uint32_t slot) const {
    return std::any_of(m_model.publishes.begin(), m_model.publishes.end(), [&](const auto& p) {
        return p.workgroup == group && p.slot == slot && p.word.flag == LookbackFlag::Prefix;
    });
}

LookbackWord decodeLookbackWord(const LookbackDecl& d, uint32_t word) {
    LookbackWord w;
    w.word = word;
    uint32_t flag = word >> d.flagShift;
    w.value = word & ((1u << d.flagShift) - 1);
    w.flag = flag == 0             ? LookbackFlag::NotReady
             : flag == d.aggregate ? LookbackFlag::Aggregate
             : flag == d.prefix    ? LookbackFlag::Prefix
                                   : LookbackFlag::Odd;
    return w;
}

LookbackModel lookbackModel(const Puzzle& puzzle, const TestCase& testCase, const Trace& trace) {
    if (!puzzle.lookback) {
        LookbackModel m;
        m.unavailable = puzzle.slug + " declares no look-back ([lookback] in puzzle.toml)";
        return m;
    }
    return LookbackBuilder(puzzle, testCase, trace).build();
}

} // namespace vkp::views
