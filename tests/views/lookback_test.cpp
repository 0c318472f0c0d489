// The look-back model on synthetic traces: tickets to tiles, status words over the inferred
// time, polls and the fallback, what a wrong kernel's trace shows (a tile counted twice, a word
// never published, a wait stopped by the loop budget, values nobody wrote, an order that
// contradicts itself), and a radix sort's several words per tile past earlier rounds' words.
// Real traces of the official solution and of wrong kernels: tests/check/lookback_test.cpp.
#include <gtest/gtest.h>

#include "support/trace_builder.h"
#include "views/lookback.h"

namespace vkp::views {
namespace {

using test::TraceBuilder;

constexpr uint32_t kAgg = 1u << 30, kPre = 2u << 30;
constexpr uint32_t kTicketLine = 10, kPublishLine = 20, kPollLine = 30;

// One thread per workgroup, one workgroup per tile; buffers a, status, counter (in the trace's
// order, which TraceBuilder makes the puzzle's).
struct Scan {
    TraceBuilder b;
    uint32_t a, status, counter;
    Puzzle p;
    TestCase tc;

    explicit Scan(uint32_t tiles, uint32_t wordsPerTile = 1)
        : b({1, 1, 1}, {tiles, 1, 1}), a(b.buffer("a", 4 * tiles)),
          status(b.buffer("status", tiles * wordsPerTile * 2)), counter(b.buffer("counter", 2)) {
        p.slug = "demo";
        p.buffers = {BufferDecl{"a", 0, ElementKind::Uint},
                     BufferDecl{"status", 2, ElementKind::Uint},
                     BufferDecl{"counter", 3, ElementKind::Uint}};
        p.lookback = LookbackDecl{};
        p.lookback->status = 1;
        p.lookback->counter = 2;
        p.lookback->wordsPerTile = Expr::literal(wordsPerTile);
        tc.workgroups = {tiles, 1, 1};
    }
    Scan& ticket(uint64_t wg, uint32_t tile, uint32_t index = 0) {
        b.atomic(wg, counter, index, kTicketLine, tile, 1);
        return *this;
    }
    Scan& publish(uint64_t wg, uint32_t index, uint32_t old, uint32_t word) {
        b.atomic(wg, status, index, kPublishLine, old, word);
        return *this;
    }
    Scan& poll(uint64_t wg, uint32_t index, uint32_t seen) {
        b.read(wg, status, index, kPollLine, seen);
        return *this;
    }
    LookbackModel model() const { return lookbackModel(p, tc, b.t); }
};

std::string joined(const std::vector<std::string>& lines) {
    std::string s;
    for (const std::string& l : lines)
        s += l + "\n";
    return s;
}

// The statement's example, with the tickets out of workgroup order: workgroup 2 took tile 0,
// workgroup 0 tile 1, workgroup 1 tile 2; tile 2 saw tile 1's AGGREGATE, then tile 0's PREFIX.
Scan statementExample() {
    Scan s(3);
    s.ticket(2, 0).publish(2, 0, 0, kPre | 28);
    s.ticket(0, 1)
        .publish(0, 1, 0, kAgg | 92)
        .poll(0, 0, kPre | 28)
        .publish(0, 1, kAgg | 92, kPre | 120);
    s.ticket(1, 2).publish(1, 2, 0, kAgg | 70).poll(1, 1, kAgg | 92).poll(1, 0, kPre | 28);
    s.publish(1, 2, kAgg | 70, kPre | 190);
    return s;
}

TEST(LookbackModel, TicketsGiveTilesAndTheirOrder) {
    LookbackModel m = statementExample().model();
    ASSERT_TRUE(m.ok()) << m.unavailable;
    ASSERT_EQ(m.tiles.size(), 3u);
    EXPECT_EQ(m.tiles[0].workgroup, 2u);
    EXPECT_EQ(m.tiles[1].workgroup, 0u);
    EXPECT_EQ(m.tiles[2].workgroup, 1u);
    EXPECT_LT(m.tiles[0].ticketColumn, m.tiles[1].ticketColumn) << "ticket 0 was handed out first";
    EXPECT_LT(m.tiles[1].ticketColumn, m.tiles[2].ticketColumn);
    for (const LookbackTile& t : m.tiles)
        EXPECT_TRUE(t.problems.empty()) << t.tile << ": " << t.problems.front();
    EXPECT_TRUE(m.notes.empty()) << m.notes.front();
}

TEST(LookbackModel, WordsOverTimeFollowWhatTheReadsSaw) {
    LookbackModel m = statementExample().model();
    const LookbackPublish* agg1 = m.lastPublish(1, 0, LookbackFlag::Aggregate);
    const LookbackPublish* pre1 = m.lastPublish(1, 0, LookbackFlag::Prefix);
    ASSERT_TRUE(agg1 && pre1);
    EXPECT_EQ(agg1->word.value, 92u);
    EXPECT_EQ(pre1->word.value, 120u);
    EXPECT_EQ(agg1->workgroup, 0u);
    // Tile 2 read tile 1's AGGREGATE: after it was written and before the PREFIX replaced it.
    // Its two reads follow each other, further back: one walk, one poll.
    ASSERT_EQ(m.tiles[2].polls.size(), 1u);
    const LookbackPoll& walk = m.polls[m.tiles[2].polls[0]];
    EXPECT_GT(walk.column, agg1->column);
    EXPECT_LT(walk.column, pre1->column);
    EXPECT_EQ(m.wordAt(1, 0, walk.column).flag, LookbackFlag::Aggregate);
    EXPECT_EQ(m.wordAt(1, 0, m.columns - 1).flag, LookbackFlag::Prefix);
    EXPECT_EQ(m.wordAt(2, 0, 0).flag, LookbackFlag::NotReady) << "nothing before its first write";
    // Its walk: tile 1's AGGREGATE stepped over, tile 0's PREFIX ends it.
    ASSERT_EQ(walk.seen.size(), 2u);
    EXPECT_EQ(walk.seen[0].first, 1u) << "nearest first";
    EXPECT_EQ(walk.seen[0].second.flag, LookbackFlag::Aggregate);
    EXPECT_FALSE(walk.waitedOn);
    EXPECT_EQ(walk.prefixAt, 0u);
    EXPECT_FALSE(walk.fallback);
    EXPECT_EQ(walk.access.invocation, 1u);
    EXPECT_EQ(walk.access.event, 2u) << "ticket, publish, then the walk's first read";
}

TEST(LookbackModel, TextHasAStripPerTileAndWhatEachDid) {
    std::string text = joined(lookbackText(statementExample().model()));
    EXPECT_NE(text.find("tile 0   |T"), std::string::npos) << text;
    EXPECT_NE(text.find("tile 1: workgroup 0 (ticket 1"), std::string::npos) << text;
    EXPECT_NE(text.find("published AGGREGATE 92 = 1073741916"), std::string::npos) << text;
    EXPECT_NE(text.find("published PREFIX 190"), std::string::npos) << text;
    EXPECT_NE(text.find("polled tile 0 PREFIX 28; stops at tile 0's PREFIX"), std::string::npos)
        << text;
    EXPECT_EQ(text.find("PROBLEM"), std::string::npos) << text;
}

// Tile 1's workgroup is slow: tile 2 polls its word three times, finds it not ready, sums tile 1
// from `a` itself and goes on to tile 0 without it. Tile 1 publishes after all that.
Scan slowPredecessor() {
    Scan s(3);
    s.ticket(0, 0).publish(0, 0, 0, kPre | 28);
    s.ticket(1, 1);
    s.ticket(2, 2).publish(2, 2, 0, kAgg | 70);
    s.poll(2, 1, 0).poll(2, 1, 0).poll(2, 1, 0);
    for (uint32_t i = 4; i < 8; ++i)
        s.b.read(2, s.a, i, 40, i); // the fallback: tile 1's part of a
    s.poll(2, 0, kPre | 28);
    s.publish(2, 2, kAgg | 70, kPre | 190);
    s.publish(1, 1, 0, kAgg | 92).poll(1, 0, kPre | 28).publish(1, 1, kAgg | 92, kPre | 120);
    return s;
}

TEST(LookbackModel, ThePollsOfASilentPredecessorAndTheFallback) {
    LookbackModel m = slowPredecessor().model();
    ASSERT_EQ(m.tiles[2].polls.size(), 2u);
    const LookbackPoll& waiting = m.polls[m.tiles[2].polls[0]];
    EXPECT_EQ(waiting.count, 3u) << "three polls in a row saw the same: one run";
    EXPECT_EQ(waiting.waitedOn, 1u);
    EXPECT_TRUE(waiting.fallback) << "the walk went on to tile 0 without tile 1's word";
    EXPECT_FALSE(m.polls[m.tiles[2].polls[1]].fallback);
    const LookbackPublish* agg1 = m.lastPublish(1, 0, LookbackFlag::Aggregate);
    ASSERT_TRUE(agg1);
    EXPECT_GT(agg1->column, waiting.column) << "a read of the initial 0 comes before every write";
    for (const LookbackTile& t : m.tiles)
        EXPECT_TRUE(t.problems.empty()) << t.tile << ": " << t.problems.front();
    std::string text = joined(lookbackText(m));
    EXPECT_NE(text.find("3 polls saw tile 1 not ready; gives up on tile 1 and sums it itself"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find('F'), std::string::npos) << text;
}

TEST(LookbackModel, ATileCountedTwiceIsNamed) {
    Scan s = slowPredecessor();
    // The last publish of tile 2 said 218: tile 0's 28 twice (a fallback that summed tile 0).
    s.b.t.threads[2].back().extra = kPre | 218;
    LookbackModel m = s.model();
    ASSERT_EQ(m.tiles[2].problems.size(), 1u);
    EXPECT_EQ(m.tiles[2].problems[0],
              "published PREFIX 218, but the aggregates of tiles 0 to 2 add up to 190: as if "
              "tile 0's 28 were added twice");
    s.b.t.threads[2].back().extra = kPre | 126; // tile 0 summed in place of tile 1
    m = s.model();
    ASSERT_EQ(m.tiles[2].problems.size(), 1u);
    EXPECT_NE(m.tiles[2].problems[0].find("as if tile 0's 28 were added in place of tile 1's 92"),
              std::string::npos)
        << m.tiles[2].problems[0];
    s.b.t.threads[2].back().extra = kPre | 162; // stopped at tile 1's AGGREGATE: tile 0 left out
    EXPECT_NE(s.model().tiles[2].problems[0].find("as if tile 0's 28 were left out"),
              std::string::npos);
}

// A tile that builds on a wrong PREFIX carries its error: one problem, where it began.
TEST(LookbackModel, ATileBuiltOnAWrongPrefixCarriesItsError) {
    Scan s(4);
    s.ticket(0, 0).publish(0, 0, 0, kPre | 28);
    s.ticket(1, 1).publish(1, 1, 0, kAgg | 92).poll(1, 0, kPre | 28);
    s.publish(1, 1, kAgg | 92, kPre | 148); // 28 twice
    s.ticket(2, 2).publish(2, 2, 0, kAgg | 70).poll(2, 1, kPre | 148);
    s.publish(2, 2, kAgg | 70, kPre | 218);
    LookbackModel m = s.model();
    ASSERT_EQ(m.tiles[1].problems.size(), 1u);
    EXPECT_NE(m.tiles[1].problems[0].find("as if tile 0's 28 were added twice"), std::string::npos);
    EXPECT_TRUE(m.tiles[2].problems.empty()) << m.tiles[2].problems.front();
    EXPECT_EQ(m.tiles[2].carriesFrom, 1u);
    EXPECT_NE(joined(lookbackText(m))
                  .find("carried: published PREFIX 218, tile 1's wrong PREFIX "
                        "plus its own AGGREGATE: it carries tile 1's error"),
              std::string::npos)
        << joined(lookbackText(m));
}

// A kernel whose tile 1 never publishes, and whose tile 2 waits for it without a bound until the
// loop budget stops it.
TEST(LookbackModel, AWordNeverPublishedAndAWaitWithoutEnd) {
    Scan s(3);
    s.ticket(0, 0).publish(0, 0, 0, kPre | 28);
    s.ticket(1, 1);
    s.ticket(2, 2).publish(2, 2, 0, kAgg | 70);
    for (int i = 0; i < 5; ++i)
        s.poll(2, 1, 0);
    s.b.loopBudget(2, kPollLine);
    s.publish(2, 2, kAgg | 70, kPre | 70);
    LookbackModel m = s.model();
    ASSERT_FALSE(m.tiles[1].problems.empty());
    EXPECT_NE(m.tiles[1].problems[0].find("never published"), std::string::npos);
    ASSERT_FALSE(m.tiles[2].problems.empty());
    EXPECT_NE(m.tiles[2].problems[0].find("stopped by the loop budget, waiting on tile 1"),
              std::string::npos)
        << m.tiles[2].problems[0];
    const LookbackPoll& waiting = m.polls[m.tiles[2].polls[0]];
    EXPECT_EQ(waiting.count, 5u);
    EXPECT_FALSE(waiting.fallback) << "stopped, not given up";
}

// What a wrong kernel can leave: a word no one wrote, an odd flag, two workgroups on one ticket,
// and a store-buffering pair of reads (each saw the other's word still 0 after writing its own)
// whose order closes a cycle. The model says so and still places every moment.
TEST(LookbackModel, OddValuesAndContradictionsDoNotBreakIt) {
    Scan s(3);
    s.ticket(0, 0).publish(0, 0, 0, kPre | 5).poll(0, 1, 0);
    s.ticket(1, 1).publish(1, 1, 0, kPre | 9).poll(1, 0, 0);
    s.ticket(2, 1).publish(2, 2, 0, 3u << 30 | 4).poll(2, 0, 777);
    LookbackModel m = s.model();
    ASSERT_TRUE(m.ok());
    bool contradiction = false;
    for (const std::string& n : m.notes)
        contradiction = contradiction || n.find("contradict") != std::string::npos;
    EXPECT_TRUE(contradiction) << joined(m.notes);
    EXPECT_NE(joined(m.tiles[1].problems).find("taken by two workgroups, 1 and 2"),
              std::string::npos)
        << joined(m.tiles[1].problems);
    const LookbackPublish* odd = nullptr;
    for (const LookbackPublish& p : m.publishes)
        if (p.index == 2) odd = &p;
    ASSERT_TRUE(odd);
    EXPECT_EQ(odd->word.flag, LookbackFlag::Odd);
    EXPECT_EQ(lookbackWordText(odd->word), "odd word " + std::to_string(3u << 30 | 4));
    for (const LookbackPoll& p : m.polls)
        EXPECT_LT(p.column, m.columns);
    EXPECT_FALSE(lookbackText(m).empty());
}

// A radix sort's look-back: two words per tile (one per digit), and this round's tiles come after
// the previous round's words (status[4..7] for tiles 0 and 1): the offset comes from the tickets.
TEST(LookbackModel, SeveralWordsPerTileAfterEarlierRoundsWords) {
    Scan s(2, 2);
    s.ticket(1, 0, 1).publish(1, 4, 0, kPre | 3).publish(1, 5, 0, kPre | 1);
    s.ticket(0, 1, 1).publish(0, 6, 0, kAgg | 2).publish(0, 7, 0, kAgg | 5);
    s.poll(0, 4, kPre | 3).poll(0, 5, kPre | 1);
    s.publish(0, 6, kAgg | 2, kPre | 5).publish(0, 7, kAgg | 5, kPre | 6);
    LookbackModel m = s.model();
    ASSERT_EQ(m.tiles.size(), 2u);
    EXPECT_EQ(m.wordsPerTile, 2u);
    EXPECT_EQ(m.tiles[0].workgroup, 1u);
    ASSERT_TRUE(m.lastPublish(1, 1, LookbackFlag::Prefix));
    EXPECT_EQ(m.lastPublish(1, 1, LookbackFlag::Prefix)->index, 7u);
    ASSERT_EQ(m.tiles[1].polls.size(), 2u) << "one poll per word";
    EXPECT_EQ(m.polls[m.tiles[1].polls[1]].slot, 1u);
    EXPECT_EQ(m.polls[m.tiles[1].polls[1]].prefixAt, 0u);
    for (const LookbackTile& t : m.tiles)
        EXPECT_TRUE(t.problems.empty()) << t.tile << ": " << t.problems.front();
    EXPECT_NE(joined(lookbackText(m, 1)).find("word 1 of each tile"), std::string::npos);
}

// One thread that reads a window of words one after the other (tiles 2, 1, 0 and 0 again, clamped
// at tile 0), as radix-sort-onesweep's look-back does: each window is one poll; the next window
// starts higher again.
TEST(LookbackModel, AWindowReadByOneThreadIsOnePoll) {
    Scan s(4);
    s.ticket(0, 0).publish(0, 0, 0, kPre | 1);
    s.ticket(1, 1).publish(1, 1, 0, kAgg | 2);
    s.ticket(2, 2).publish(2, 2, 0, kAgg | 3);
    s.ticket(3, 3).publish(3, 3, 0, kAgg | 4);
    for (int window = 0; window < 2; ++window)
        s.poll(3, 2, 0).poll(3, 1, kAgg | 2).poll(3, 0, kPre | 1).poll(3, 0, kPre | 1);
    s.b.barrier(3); // something between the windows
    s.poll(3, 2, kPre | 6).poll(3, 1, kAgg | 2).poll(3, 0, kPre | 1).poll(3, 0, kPre | 1);
    LookbackModel m = s.model();
    ASSERT_EQ(m.tiles[3].polls.size(), 2u);
    const LookbackPoll& waiting = m.polls[m.tiles[3].polls[0]];
    EXPECT_EQ(waiting.count, 2u);
    EXPECT_EQ(waiting.seen.size(), 3u) << "tiles 2, 1 and 0, the clamped repeat folded in";
    EXPECT_EQ(waiting.waitedOn, 2u);
    EXPECT_FALSE(waiting.fallback) << "the next window looks at tile 2 again";
    EXPECT_EQ(m.polls[m.tiles[3].polls[1]].prefixAt, 2u);
}

TEST(LookbackModel, UnavailableWithoutTheStatusBufferOrTheTable) {
    Scan s(2);
    Puzzle none = s.p;
    none.lookback.reset();
    EXPECT_NE(lookbackModel(none, s.tc, s.b.t).unavailable.find("declares no look-back"),
              std::string::npos);
    TraceBuilder other({1, 1, 1}, {2, 1, 1});
    other.buffer("a", 8);
    LookbackModel m = lookbackModel(s.p, s.tc, other.t);
    EXPECT_FALSE(m.ok());
    EXPECT_EQ(m.unavailable, "this dispatch does not use 'status', the buffer of the look-back's "
                             "status words");
    EXPECT_EQ(lookbackText(m), std::vector<std::string>{m.unavailable});
}

TEST(LookbackModel, DecodesWordsByTheDeclaredFlags) {
    LookbackDecl d;
    d.flagShift = 28;
    d.aggregate = 3;
    d.prefix = 5;
    EXPECT_EQ(decodeLookbackWord(d, 3u << 28 | 17).flag, LookbackFlag::Aggregate);
    EXPECT_EQ(decodeLookbackWord(d, 3u << 28 | 17).value, 17u);
    EXPECT_EQ(decodeLookbackWord(d, 5u << 28).flag, LookbackFlag::Prefix);
    EXPECT_EQ(decodeLookbackWord(d, 1u << 28).flag, LookbackFlag::Odd);
    EXPECT_EQ(decodeLookbackWord(d, 12).flag, LookbackFlag::NotReady);
    EXPECT_EQ(lookbackWordText(decodeLookbackWord(d, 12)), "not ready (12)");
}

} // namespace
} // namespace vkp::views
