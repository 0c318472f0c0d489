// The decoupled look-back of one traced dispatch, headless: per tile, which workgroup took it
// (its ticket), what its status word held over time (not ready, AGGREGATE, PREFIX, with the
// values) and who waited for whom (a workgroup's polls of its predecessors' words: what each
// saw, how many times in a row, whether it gave up and did the work itself: the fallback). The
// puzzle names the buffers and the word's encoding in its [lookback] table (LookbackDecl,
// puzzle/puzzle.h); the Look-back view (panels/lookback_panel.h) and `vkpuzzles walkthrough`
// (lookbackText) show this model.
//
// What is exact and what is inferred. The trace keeps each thread's accesses in program order,
// with the values they read, wrote or found, and no clock across workgroups. Exact: which
// workgroup took which ticket (the counter's atomics return the value they found: the ticket);
// the order of the tickets (an atomic cell's updates form one chain: each found what the one
// before it left); every status write's value and writer; every read's value; program order
// within a thread and barrier rounds within a workgroup. Inferred: the time axis. Each moment
// (a ticket, a status write, a run of identical polls) is placed in the earliest column that
// is consistent with what the trace proves must come first: program order, barriers, the ticket
// chain, a status word's chain of atomic updates, a write before every read that saw its value
// (reads-from) and a read before the write that replaced what it saw (from-read). Two moments
// with no such chain between them may really have happened in either order; their columns only
// say neither had to wait for the other. A trace that contradicts itself (a value seen before it
// was written, as a wrong kernel or a forced schedule's frozen view can show) loses the edges
// that would close a cycle; the model says so in its notes. Which tile a poll waited on and
// whether it fell back are read from what it saw: the nearest PREFIX ends a walk, an AGGREGATE
// is stepped over, a word not ready is waited on; a walk that moves on past a tile whose word it
// last saw not ready fell back on it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "puzzle/puzzle.h"
#include "trace/trace.h"

namespace vkp::views {

enum class LookbackFlag : uint8_t { NotReady, Aggregate, Prefix, Odd };
const char* lookbackFlagName(LookbackFlag f); // "not ready", "AGGREGATE", "PREFIX", "odd flag"

// A status word as the protocol reads it.
struct LookbackWord {
    uint32_t word = 0;
    LookbackFlag flag = LookbackFlag::NotReady;
    uint32_t value = 0; // the bits below the flag
};
LookbackWord decodeLookbackWord(const LookbackDecl& decl, uint32_t word);
std::string lookbackWordText(const LookbackWord& w); // "PREFIX 28", "not ready", "flag 3, 12"

struct LookbackAccess { // one access of the trace
    uint64_t invocation = 0;
    uint32_t event = 0; // index into Trace::threads[invocation]
};

// A status word written (a store or an atomic that changed it).
struct LookbackPublish {
    uint32_t tile = 0, slot = 0; // the word's tile and its place in the tile (slot < wordsPerTile)
    uint32_t index = 0;          // the status buffer's element
    LookbackWord word;           // what it left
    uint64_t workgroup = 0;      // the writer (flat index)
    LookbackAccess access;
    uint32_t column = 0; // inferred time
};

// A run of polls in a row by one workgroup that all saw the same words.
struct LookbackPoll {
    uint64_t workgroup = 0;
    uint32_t tile = 0, slot = 0; // the polling workgroup's tile, and the slot it looks back on
    uint32_t count = 1;          // polls in the run
    std::vector<std::pair<uint32_t, LookbackWord>> seen; // (tile, word), nearest tile first
    std::optional<uint32_t> waitedOn; // the nearest tile seen not ready before any PREFIX
    std::optional<uint32_t> prefixAt; // the nearest PREFIX seen, which ends the walk
    bool fallback = false;            // after the run the walk went on past `waitedOn`
    LookbackAccess access;            // the run's first read (its lowest thread)
    uint32_t column = 0;
};

struct LookbackTile {
    uint32_t tile = 0;
    std::optional<uint64_t> workgroup; // who took it (ticket), else who wrote its word
    std::optional<LookbackAccess> ticket;
    uint32_t ticketColumn = 0;
    std::vector<size_t> publishes;     // indices into LookbackModel::publishes, in column order
    std::vector<size_t> polls;         // its workgroup's polls (LookbackModel::polls), in order
    bool stopped = false;              // its workgroup ran out of loop budget
    std::vector<std::string> problems; // what is wrong with it, in words
    // A PREFIX wrong only because it was built on an earlier tile's wrong one (that tile's
    // PREFIX plus its own AGGREGATE): the error is the earlier tile's, carried on.
    std::vector<std::string> carried;
    std::optional<uint32_t> carriesFrom; // the tile whose error it carries
};

struct LookbackModel {
    std::string unavailable; // why there is nothing to show ("" when there is)
    std::string status;      // the status buffer's name
    uint32_t wordsPerTile = 1;
    uint32_t columns = 0; // inferred time runs 0 .. columns-1
    std::vector<LookbackTile> tiles;
    std::vector<LookbackPublish> publishes;
    std::vector<LookbackPoll> polls;
    std::vector<std::string> notes; // what the model could not tell, odd things seen

    bool ok() const { return unavailable.empty(); }
    // The word of `tile`'s `slot` at `column`: what its last write at or before then left.
    LookbackWord wordAt(uint32_t tile, uint32_t slot, uint32_t column) const;
    // The tile's last write of that slot with this flag, if any.
    const LookbackPublish* lastPublish(uint32_t tile, uint32_t slot, LookbackFlag flag) const;
};

// Tiles past this are left out (a note says how many): a view has one row per tile.
inline constexpr uint32_t kLookbackMaxTiles = 4096;

// The look-back of one dispatch's trace of `testCase` (the launch on show). Never fails: a
// trace without the status buffer, or a puzzle without [lookback], gives `unavailable`; odd
// values give notes and problems.
LookbackModel lookbackModel(const Puzzle& puzzle, const TestCase& testCase, const Trace& trace);

// As text: a strip per tile, one character per column (T ticket, . not ready, a AGGREGATE,
// p PREFIX, capitals where it was written, ? a poll, F a fallback), then what each tile's
// workgroup did, in words. `width`: the strip's most characters (columns are merged past it).
std::vector<std::string> lookbackText(const LookbackModel& m, uint32_t slot = 0, int width = 60);

} // namespace vkp::views
