// LookbackBuilder, which makes the look-back model (views/lookback.h) from one dispatch's trace,
// for the files that define it: lookback.cpp (the moments found in the trace: tickets, tiles,
// publishes, polls), lookback_order.cpp (their places in time) and lookback_judge.cpp (what is
// wrong with each tile).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "trace/atomic_ops.h"
#include "views/lookback.h"

namespace vkp::views {

class LookbackBuilder {
  public:
    LookbackBuilder(const Puzzle& p, const TestCase& tc, const Trace& t)
        : m_puzzle(p), m_decl(*p.lookback), m_case(tc), m_trace(t) {}

    LookbackModel build();

  private:
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

    // The moments found in the trace (lookback.cpp).
    bool findVariables();
    AtomicOpKind opOf(const TraceEvent& e, bool counter) const;
    void scan();
    uint32_t rawTile(uint32_t index) const;
    uint32_t slotOf(uint32_t index) const;
    std::optional<uint32_t> tileOf(uint32_t index) const;
    void assignTiles();
    void makeTiles();
    void makePublishes();
    void makePolls();
    void addPollRead(size_t r);
    static void interpret(LookbackPoll& p);
    bool publishedPrefix(uint64_t group, uint32_t slot) const;

    // Their order in time (lookback_order.cpp).
    uint32_t addNode(Node::Kind kind, size_t item, uint64_t group);
    void touch(uint32_t node, const LookbackAccess& at);
    void edge(uint32_t from, uint32_t to, EdgeKind kind);
    void order();
    void roundEdges();
    void chainEdges();
    std::vector<size_t> writesLeaving(uint32_t index, uint32_t word) const;
    std::optional<size_t> nextWrite(size_t p) const;
    void readEdges();
    void columns();
    size_t breakCycle(const std::vector<bool>& done, std::vector<uint32_t>& pending,
                      const std::vector<std::vector<uint32_t>>& inTo, std::vector<uint32_t>& ready);

    // What is wrong with each tile (lookback_judge.cpp).
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

} // namespace vkp::views
