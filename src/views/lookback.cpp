#include "views/lookback.h"

#include <algorithm>
#include <map>
#include <set>

#include "puzzle/passes.h"
#include "trace/atomic_ops.h"

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

std::string offText(int64_t off, const std::vector<uint32_t>& aggregates, uint32_t tile);

// Edges of the order, weakest last: when the trace contradicts itself, the weakest go first.
enum EdgeKind : uint8_t { kProgram = 0, kAtomicChain = 1, kReadsFrom = 2, kFromRead = 3 };

struct Node {
    enum class Kind { Ticket, Publish, Poll } kind = Kind::Ticket;
    size_t item = 0; // the tile (Ticket), or an index into publishes / polls
    uint64_t group = 0;
    uint32_t minRound = UINT32_MAX, maxRound = 0;
};

struct Edge {
    uint32_t from = 0, to = 0;
    EdgeKind kind = kProgram;
    bool dropped = false;
};

// A status write or read as found in the trace, before it becomes part of the model.
struct StatusAccess {
    LookbackAccess at;
    uint64_t group = 0;
    uint32_t index = 0;
    uint32_t word = 0;           // what a read saw, or what a write left
    std::optional<uint32_t> old; // an atomic's: what it found
    uint32_t round = 0;
};

class Builder {
  public:
    Builder(const Puzzle& p, const TestCase& tc, const Trace& t)
        : m_puzzle(p), m_decl(*p.lookback), m_case(tc), m_trace(t) {}

    LookbackModel build() {
        m_model.status = m_puzzle.buffers[m_decl.status].name;
        if (!findVariables()) return std::move(m_model);
        m_per = std::max(1u, m_trace.launch.invocationsPerGroup());
        m_groups = m_trace.threads.size() / m_per;
        uint64_t wpt = m_decl.wordsPerTile.evaluate(
            caseVars(m_puzzle, m_case, caseNames(m_puzzle, m_case, 0)));
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

  private:
    bool findVariables() {
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

    AtomicOpKind opOf(const TraceEvent& e, bool counter) const {
        auto it = m_atomics.find(e.line);
        if (it != m_atomics.end()) return it->second;
        return counter ? AtomicOpKind::Add : AtomicOpKind::Exchange;
    }

    // Collects the tickets, the status accesses and the threads the loop budget stopped.
    void scan() {
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
                    uint32_t after =
                        applyAtomic(opOf(e, true), ElementKind::Uint, e.value, e.extra);
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
                    uint32_t after =
                        applyAtomic(opOf(e, false), ElementKind::Uint, e.value, e.extra);
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

    uint32_t rawTile(uint32_t index) const { return index / m_model.wordsPerTile; }
    uint32_t slotOf(uint32_t index) const { return index % m_model.wordsPerTile; }
    // The tile of a status element in this dispatch, if it is one of its tiles.
    std::optional<uint32_t> tileOf(uint32_t index) const {
        int64_t t = int64_t(rawTile(index)) - m_offset;
        if (t < 0 || t >= int64_t(m_tileCount)) return std::nullopt;
        return static_cast<uint32_t>(t);
    }

    // Each workgroup's tile: its ticket (the value its first atomic on the counter found), else
    // the tile of its first status write. The status words of one dispatch may start past 0 (a
    // radix sort's round r uses the words after the earlier rounds'): that offset is what most
    // ticket holders' writes agree on.
    void assignTiles() {
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

    uint32_t addNode(Node::Kind kind, size_t item, uint64_t group) {
        m_nodes.push_back({kind, item, group});
        return static_cast<uint32_t>(m_nodes.size() - 1);
    }
    void touch(uint32_t node, const LookbackAccess& at) {
        const TraceEvent& e = m_trace.threads[at.invocation][at.event];
        m_nodes[node].minRound = std::min(m_nodes[node].minRound, e.round);
        m_nodes[node].maxRound = std::max(m_nodes[node].maxRound, e.round);
        m_threadNodes[at.invocation].push_back({at.event, node});
    }

    void makeTiles() {
        m_model.tiles.resize(m_tileCount);
        for (uint32_t t = 0; t < m_tileCount; ++t)
            m_model.tiles[t].tile = t;
        for (uint64_t g = 0; g < m_groups; ++g) {
            if (!m_groupTile[g] || *m_groupTile[g] >= m_tileCount) continue;
            LookbackTile& tile = m_model.tiles[*m_groupTile[g]];
            tile.stopped = tile.stopped || m_stopped[g];
            if (tile.workgroup && *tile.workgroup != g) {
                tile.problems.push_back("taken by two workgroups, " +
                                        std::to_string(*tile.workgroup) + " and " +
                                        std::to_string(g) + ": one of them shows here");
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

    void makePublishes() {
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
    void makePolls() {
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
    void addPollRead(size_t r) {
        m_pollReads.back().push_back(r);
        touch(m_pollNode.back(), m_reads[r].at);
    }
    static void interpret(LookbackPoll& p) {
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
    bool publishedPrefix(uint64_t group, uint32_t slot) const {
        return std::any_of(m_model.publishes.begin(), m_model.publishes.end(), [&](const auto& p) {
            return p.workgroup == group && p.slot == slot && p.word.flag == LookbackFlag::Prefix;
        });
    }

    void edge(uint32_t from, uint32_t to, EdgeKind kind) {
        if (from != to) m_edges.push_back({from, to, kind});
    }

    // The order: edges from program order, barriers and what the values prove, then each
    // moment's column is the longest chain of edges that leads to it.
    void order() {
        for (auto& [inv, seq] : m_threadNodes) {
            std::sort(seq.begin(), seq.end());
            for (size_t i = 1; i < seq.size(); ++i)
                edge(seq[i - 1].second, seq[i].second, kProgram);
        }
        roundEdges();
        chainEdges();
        readEdges();
        columns();
    }
    // Barriers: a moment in an earlier round of its workgroup came first.
    void roundEdges() {
        std::map<uint64_t, std::vector<uint32_t>> byGroup;
        for (uint32_t n = 0; n < m_nodes.size(); ++n)
            byGroup[m_nodes[n].group].push_back(n);
        for (auto& [g, nodes] : byGroup)
            for (uint32_t b : nodes) {
                uint32_t latest = 0;
                bool any = false;
                for (uint32_t a : nodes)
                    if (m_nodes[a].maxRound < m_nodes[b].minRound)
                        latest = std::max(latest, m_nodes[a].maxRound), any = true;
                if (!any) continue;
                for (uint32_t a : nodes)
                    if (m_nodes[a].maxRound == latest && latest < m_nodes[b].minRound)
                        edge(a, b, kProgram);
            }
    }
    // An atomic cell's updates form a chain: each found what the one before it left.
    void chainEdges() {
        std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> left; // (index, value)
        for (uint64_t g = 0; g < m_groups; ++g)
            for (size_t t : m_tickets[g])
                if (m_ticketNode.count(g) && m_tickets[g].front() == t)
                    left[{m_counterAtomics[t].index, m_counterAtomics[t].word}].push_back(g);
        for (auto& [g, node] : m_ticketNode) {
            const StatusAccess& a = m_counterAtomics[m_tickets[g].front()];
            auto it = left.find({a.index, a.old.value_or(0)});
            if (it != left.end() && it->second.size() == 1 && m_ticketNode.count(it->second[0]))
                edge(m_ticketNode[it->second[0]], node, kAtomicChain);
        }
        for (size_t p = 0; p < m_publishNode.size(); ++p) {
            const StatusAccess& w = m_writes[m_writeOfPublish[p]];
            if (!w.old) continue;
            auto before = writesLeaving(w.index, *w.old);
            if (before.size() == 1) edge(m_publishNode[before[0]], m_publishNode[p], kAtomicChain);
        }
    }
    // Publishes of element `index` that left `word`.
    std::vector<size_t> writesLeaving(uint32_t index, uint32_t word) const {
        std::vector<size_t> out;
        for (size_t p = 0; p < m_publishNode.size(); ++p) {
            const StatusAccess& w = m_writes[m_writeOfPublish[p]];
            if (w.index == index && w.word == word) out.push_back(p);
        }
        return out;
    }
    // The publish that replaced what publish `p` left: the atomic that found it, or the next
    // plain store of the same thread.
    std::optional<size_t> nextWrite(size_t p) const {
        const StatusAccess& w = m_writes[m_writeOfPublish[p]];
        std::optional<size_t> next;
        for (size_t q = 0; q < m_publishNode.size(); ++q) {
            const StatusAccess& x = m_writes[m_writeOfPublish[q]];
            if (q == p || x.index != w.index) continue;
            if (x.old && *x.old == w.word) return q;
            if (!x.old && !w.old && x.at.invocation == w.at.invocation && x.at.event > w.at.event &&
                (!next || x.at.event < m_writes[m_writeOfPublish[*next]].at.event))
                next = q;
        }
        return next;
    }
    // A read comes after the write whose value it saw and before the write that replaced it;
    // a read of the initial value comes before every write.
    void readEdges() {
        for (size_t i = 0; i < m_pollReads.size(); ++i) {
            std::set<std::pair<uint32_t, EdgeKind>> in, out;
            for (size_t r : m_pollReads[i]) {
                const StatusAccess& a = m_reads[r];
                auto from = writesLeaving(a.index, a.word);
                if (from.size() == 1) {
                    in.insert({m_publishNode[from[0]], kReadsFrom});
                    if (auto next = nextWrite(from[0]))
                        out.insert({m_publishNode[*next], kFromRead});
                } else if (from.empty() && a.word == 0) {
                    for (size_t p = 0; p < m_publishNode.size(); ++p)
                        if (m_writes[m_writeOfPublish[p]].index == a.index)
                            out.insert({m_publishNode[p], kFromRead});
                }
            }
            for (auto [n, kind] : in)
                edge(n, m_pollNode[i], kind);
            for (auto [n, kind] : out)
                edge(m_pollNode[i], n, kind);
        }
    }
    // Longest paths (Kahn's order). Where the edges close a cycle, the weakest edges into one
    // waiting moment are dropped until the order goes on.
    void columns() {
        size_t n = m_nodes.size();
        std::vector<std::vector<uint32_t>> outOf(n), inTo(n);
        for (uint32_t e = 0; e < m_edges.size(); ++e) {
            outOf[m_edges[e].from].push_back(e);
            inTo[m_edges[e].to].push_back(e);
        }
        std::vector<uint32_t> pending(n, 0), column(n, 0);
        for (const Edge& e : m_edges)
            ++pending[e.to];
        std::vector<uint32_t> ready;
        for (uint32_t v = 0; v < n; ++v)
            if (!pending[v]) ready.push_back(v);
        std::vector<bool> done(n, false);
        size_t finished = 0, dropped = 0;
        while (finished < n) {
            if (ready.empty()) dropped += breakCycle(done, pending, inTo, ready);
            if (ready.empty()) break;
            uint32_t v = ready.back();
            ready.pop_back();
            done[v] = true;
            ++finished;
            for (uint32_t e : outOf[v]) {
                if (m_edges[e].dropped) continue;
                uint32_t w = m_edges[e].to;
                column[w] = std::max(column[w], column[v] + 1);
                if (--pending[w] == 0) ready.push_back(w);
            }
        }
        if (dropped)
            m_model.notes.push_back("the trace's values contradict each other (" +
                                    std::to_string(dropped) +
                                    " orderings dropped): some moments may be drawn out of order");
        uint32_t columns = 0;
        for (uint32_t v = 0; v < n; ++v) {
            columns = std::max(columns, column[v] + 1);
            const Node& node = m_nodes[v];
            if (node.kind == Node::Kind::Ticket) m_model.tiles[node.item].ticketColumn = column[v];
            if (node.kind == Node::Kind::Publish) m_model.publishes[node.item].column = column[v];
            if (node.kind == Node::Kind::Poll) m_model.polls[node.item].column = column[v];
        }
        m_model.columns = columns;
    }
    size_t breakCycle(const std::vector<bool>& done, std::vector<uint32_t>& pending,
                      const std::vector<std::vector<uint32_t>>& inTo,
                      std::vector<uint32_t>& ready) {
        // The waiting moment whose weakest pending edge is the weakest of all.
        std::optional<uint32_t> pick;
        int weakest = -1;
        for (uint32_t v = 0; v < done.size(); ++v) {
            if (done[v]) continue;
            for (uint32_t e : inTo[v])
                if (!m_edges[e].dropped && !done[m_edges[e].from] && m_edges[e].kind > weakest)
                    weakest = m_edges[e].kind, pick = v;
        }
        if (!pick) return 0;
        size_t dropped = 0;
        for (uint32_t e : inTo[*pick])
            if (!m_edges[e].dropped && !done[m_edges[e].from] && m_edges[e].kind == weakest) {
                m_edges[e].dropped = true;
                ++dropped;
                --pending[*pick];
            }
        if (!pending[*pick]) ready.push_back(*pick);
        return dropped;
    }

    void judge();
    std::optional<uint32_t> aggregateOf(uint32_t tile, uint32_t slot) const;

    const Puzzle& m_puzzle;
    const LookbackDecl& m_decl;
    const TestCase& m_case;
    const Trace& m_trace;
    LookbackModel m_model;
    std::optional<uint32_t> m_status, m_counter;
    uint32_t m_per = 1;
    uint64_t m_groups = 0;
    std::map<uint32_t, AtomicOpKind> m_atomics;
    std::vector<StatusAccess> m_counterAtomics, m_writes, m_reads;
    std::vector<std::vector<size_t>> m_tickets; // per workgroup: its counter atomics
    std::vector<bool> m_stopped;
    std::set<uint64_t> m_truncated; // invocations whose records filled their slots
    std::vector<std::optional<uint32_t>> m_groupTile;
    int64_t m_offset = 0;
    uint32_t m_tileCount = 0;
    std::vector<Node> m_nodes;
    std::vector<Edge> m_edges;
    std::map<uint64_t, std::vector<std::pair<uint32_t, uint32_t>>> m_threadNodes; // (event, node)
    std::map<uint64_t, uint32_t> m_ticketNode;                                    // by workgroup
    std::vector<uint32_t> m_publishNode;                                          // per publish
    std::vector<size_t> m_writeOfPublish;         // per publish: index into m_writes
    std::vector<uint32_t> m_pollNode;             // per poll run
    std::vector<std::vector<size_t>> m_pollReads; // per poll run: indices into m_reads
};

std::optional<uint32_t> Builder::aggregateOf(uint32_t tile, uint32_t slot) const {
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
void Builder::judge() {
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
    return Builder(puzzle, testCase, trace).build();
}

} // namespace vkp::views
