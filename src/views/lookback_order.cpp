// The look-back's time axis (views/lookback.h): the moments as nodes, the edges the trace proves
// (program order, barriers, atomic chains, reads-from and from-read) and each moment's column, the
// longest chain of edges that leads to it.
#include <algorithm>

#include "views/lookback_builder.h"

namespace vkp::views {

uint32_t LookbackBuilder::addNode(Node::Kind kind, size_t item, uint64_t group) {
    m_nodes.push_back({kind, item, group});
    return static_cast<uint32_t>(m_nodes.size() - 1);
}

void LookbackBuilder::touch(uint32_t node, const LookbackAccess& at) {
    const TraceEvent& e = m_trace.threads[at.invocation][at.event];
    m_nodes[node].minRound = std::min(m_nodes[node].minRound, e.round);
    m_nodes[node].maxRound = std::max(m_nodes[node].maxRound, e.round);
    m_threadNodes[at.invocation].push_back({at.event, node});
}

void LookbackBuilder::edge(uint32_t from, uint32_t to, EdgeKind kind) {
    if (from != to) m_edges.push_back({from, to, kind});
}

// The order: edges from program order, barriers and what the values prove, then each
// moment's column is the longest chain of edges that leads to it.
void LookbackBuilder::order() {
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
void LookbackBuilder::roundEdges() {
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
void LookbackBuilder::chainEdges() {
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
std::vector<size_t> LookbackBuilder::writesLeaving(uint32_t index, uint32_t word) const {
    std::vector<size_t> out;
    for (size_t p = 0; p < m_publishNode.size(); ++p) {
        const StatusAccess& w = m_writes[m_writeOfPublish[p]];
        if (w.index == index && w.word == word) out.push_back(p);
    }
    return out;
}

// The publish that replaced what publish `p` left: the atomic that found it, or the next
// plain store of the same thread.
std::optional<size_t> LookbackBuilder::nextWrite(size_t p) const {
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
void LookbackBuilder::readEdges() {
    for (size_t i = 0; i < m_pollReads.size(); ++i) {
        std::set<std::pair<uint32_t, EdgeKind>> in, out;
        for (size_t r : m_pollReads[i]) {
            const StatusAccess& a = m_reads[r];
            auto from = writesLeaving(a.index, a.word);
            if (from.size() == 1) {
                in.insert({m_publishNode[from[0]], kReadsFrom});
                if (auto next = nextWrite(from[0])) out.insert({m_publishNode[*next], kFromRead});
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
void LookbackBuilder::columns() {
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

size_t LookbackBuilder::breakCycle(const std::vector<bool>& done, std::vector<uint32_t>& pending,
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

} // namespace vkp::views
