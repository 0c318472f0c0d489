// Case files without a device: a report of one case round-trips with everything the views read;
// a file cut short, changed, of a newer format or not a case file at all is refused with the
// reason; indices the views follow that point outside the puzzle or the trace are refused before
// anything is shown. (A real check round-trips in tests/check/case_file_test.cpp; the command
// line and the app in tests/cli and tests/app.)
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include <sys/stat.h>
#include <unistd.h>

#include "judge/statement_rules.h"
#include "puzzle/buffer_compare.h"
#include "puzzle/puzzle_loader.h"
#include "report/case_file.h"
#include "support/trace_builder.h"

namespace vkp {
namespace {

using test::TraceBuilder;

Puzzle mapPuzzle() {
    auto p = loadPuzzle(std::string(VKPUZZLES_SOURCE_DIR) + "/puzzles/01-map");
    EXPECT_TRUE(p.ok()) << (p ? "" : p.error().str());
    return *p;
}

// Case `index` of map, as a traced check with a kernel that reads a[i] and writes a[i] + 10,
// except thread 1, which writes nothing: one wrong cell. Its analysis has one finding more than
// the trace alone gives (a forced schedule's note, say): the file must keep it.
CheckReport mapReport(const Puzzle& p, size_t index) {
    auto data = materializeCase(p, index);
    EXPECT_TRUE(data.ok());
    const TestCase& tc = p.cases[index];
    TraceBuilder b(tc.workgroupSize, tc.workgroups);
    uint64_t n = data->initial[0].words.size();
    uint32_t a = b.buffer("a", n), out = b.buffer("result", n);
    BufferData actual = *data->expected[1];
    for (uint64_t i = 0; i < b.t.threads.size() && i < n; ++i) {
        b.read(i, a, static_cast<uint32_t>(i), 7, data->initial[0].words[i]);
        if (i != 1) b.write(i, out, static_cast<uint32_t>(i), actual.words[i], 8);
    }
    actual.words[1] = poisonWord(actual.type);
    auto trace = std::make_shared<Trace>(b.t);
    trace->subgroupSize = 32;
    trace->source = "the kernel's text";
    TraceAnalysis analysis = analyzeCase(*trace, caseChecks(p, tc));
    Finding note;
    note.kind = FindingKind::Rule;
    note.message = "a rule the statement has, broken by thread 2";
    note.line = 8;
    note.threads = {2};
    analysis.findings.push_back(note);
    CaseOutcome c;
    c.index = index;
    c.inputs = data->initial;
    BufferOutcome o;
    o.buffer = 1;
    o.expected = *data->expected[1];
    o.actual = actual;
    o.comparison = compareBuffers(o.expected, o.actual, p.tolerance);
    c.outputs = {o};
    c.outputsMatch = false;
    c.trace = trace;
    c.analysis = std::make_shared<const TraceAnalysis>(analysis);
    c.notes = {"a known wrong answer"};
    CheckReport r;
    r.kernelFile = "mine.comp";
    r.reached = StageKind::Done;
    r.diagnostics = {{"mine.comp", 3, 5, SeverityKind::Warning, "unused variable"}};
    r.cases = {c};
    r.lanes = 32;
    return r;
}

DeviceInfo someDevice() {
    DeviceInfo d;
    d.name = "NVIDIA H200";
    d.subgroupSize = 32;
    d.maxWorkgroupSize = {1024, 1024, 64};
    return d;
}

std::string encoded(const Puzzle& p, const CheckReport& r, size_t index = 0) {
    auto f = makeCaseFile(p, r, index, "void main() {}\n", someDevice());
    EXPECT_TRUE(f.ok()) << (f ? "" : f.error().str());
    return f ? encodeCaseFile(*f) : "";
}

TEST(CaseFile, KeepsEverythingTheViewsRead) {
    Puzzle p = mapPuzzle();
    CheckReport r = mapReport(p, 2);
    auto opened = decodeCaseFile(encoded(p, r, 2), "x.vkpcase");
    ASSERT_TRUE(opened.ok()) << opened.error().str();
    const CaseFile& f = opened->file;
    EXPECT_EQ(f.kernelText, "void main() {}\n");
    EXPECT_EQ(f.device.name, "NVIDIA H200");
    EXPECT_EQ(f.device.maxWorkgroupSize[2], 64u);
    EXPECT_EQ(f.puzzleFolder, "01-map");
    EXPECT_EQ(f.madeBy.rfind("vkpuzzles ", 0), 0u) << f.madeBy;
    EXPECT_EQ(opened->puzzle->displayName(), p.displayName());
    EXPECT_EQ(opened->puzzle->cases.size(), p.cases.size());
    const CheckReport& back = *opened->report;
    ASSERT_EQ(back.cases.size(), 1u);
    EXPECT_EQ(back.kernelFile, "mine.comp");
    ASSERT_EQ(back.diagnostics.size(), 1u);
    EXPECT_EQ(back.diagnostics[0].str(), r.diagnostics[0].str());
    const CaseOutcome& c = back.cases[0];
    const CaseOutcome& was = r.cases[0];
    EXPECT_EQ(c.index, 2u);
    EXPECT_FALSE(c.pass);
    EXPECT_EQ(c.notes, was.notes);
    ASSERT_EQ(c.inputs.size(), was.inputs.size());
    EXPECT_EQ(c.inputs[0].words, was.inputs[0].words);
    ASSERT_EQ(c.outputs.size(), 1u);
    EXPECT_EQ(c.outputs[0].actual.words, was.outputs[0].actual.words);
    EXPECT_EQ(c.outputs[0].comparison.mismatchCount, 1u);
    ASSERT_EQ(c.outputs[0].comparison.mismatches.size(), 1u);
    EXPECT_EQ(c.outputs[0].comparison.mismatches[0].index, 1u);
    ASSERT_TRUE(c.trace && c.analysis);
    EXPECT_TRUE(c.dispatches.empty()) << "map is single-pass";
    ASSERT_EQ(c.trace->threads.size(), was.trace->threads.size());
    for (size_t t = 0; t < c.trace->threads.size(); ++t) {
        ASSERT_EQ(c.trace->threads[t].size(), was.trace->threads[t].size());
        for (size_t k = 0; k < c.trace->threads[t].size(); ++k) {
            const TraceEvent &e = c.trace->threads[t][k], &w = was.trace->threads[t][k];
            EXPECT_TRUE(e.kind == w.kind && e.variable == w.variable && e.line == w.line &&
                        e.index == w.index && e.value == w.value && e.round == w.round)
                << "thread " << t << " event " << k;
        }
    }
    EXPECT_EQ(c.trace->source, "the kernel's text");
    EXPECT_EQ(c.trace->subgroupSize, 32u);
    // The analysis is derived again; its findings are the recorded ones, the note included.
    ASSERT_EQ(c.analysis->findings.size(), was.analysis->findings.size());
    EXPECT_EQ(c.analysis->findings.back().message, "a rule the statement has, broken by thread 2");
    EXPECT_EQ(c.analysis->findings.back().threads, std::vector<uint64_t>{2});
    EXPECT_EQ(c.analysis->maxReads, was.analysis->maxReads);
    EXPECT_EQ(c.analysis->events, was.analysis->events);
    EXPECT_NE(caseFileSummary(*opened).find("case 3 of 1. Map: FAIL"), std::string::npos)
        << caseFileSummary(*opened);
}

TEST(CaseFile, EveryCutIsRefusedWithItsReason) {
    Puzzle p = mapPuzzle();
    std::string bytes = encoded(p, mapReport(p, 0));
    ASSERT_GT(bytes.size(), 200u);
    for (size_t n = 0; n < bytes.size(); n += 1 + n / 16) {
        auto opened = decodeCaseFile(std::string_view(bytes).substr(0, n), "cut.vkpcase");
        ASSERT_FALSE(opened.ok()) << "cut at " << n;
        const std::string& m = opened.error().message;
        EXPECT_EQ(m.rfind("cut.vkpcase ", 0), 0u) << m;
        EXPECT_TRUE(m.find("cut short") != std::string::npos ||
                    m.find("not a vkpuzzles case file") != std::string::npos ||
                    m.find("ends inside its header") != std::string::npos)
            << "cut at " << n << ": " << m;
    }
}

TEST(CaseFile, EveryChangedByteIsRefused) {
    Puzzle p = mapPuzzle();
    std::string bytes = encoded(p, mapReport(p, 0));
    for (size_t at = 0; at < bytes.size(); at += 1 + at / 32) {
        std::string changed = bytes;
        changed[at] = static_cast<char>(changed[at] ^ 0x21);
        auto opened = decodeCaseFile(changed, "changed.vkpcase");
        EXPECT_FALSE(opened.ok()) << "byte " << at << " changed, and it still opened";
    }
    auto joined = decodeCaseFile(bytes + bytes, "joined.vkpcase");
    ASSERT_FALSE(joined.ok());
    EXPECT_NE(joined.error().message.find("follow its end"), std::string::npos);
}

TEST(CaseFile, ANewerFormatIsRefusedSayingSo) {
    Puzzle p = mapPuzzle();
    std::string bytes = encoded(p, mapReport(p, 0));
    bytes[8] = static_cast<char>(kCaseFileVersion + 1);
    auto opened = decodeCaseFile(bytes, "new.vkpcase");
    ASSERT_FALSE(opened.ok());
    EXPECT_NE(opened.error().message.find("made by a newer vkpuzzles (case file format " +
                                          std::to_string(kCaseFileVersion + 1)),
              std::string::npos)
        << opened.error().message;
    auto text = decodeCaseFile("#version 450\nvoid main() {}\n", "kernel.comp");
    ASSERT_FALSE(text.ok());
    EXPECT_NE(text.error().message.find("kernel.comp is not a vkpuzzles case file"),
              std::string::npos);
}

// A file whose fingerprint is right (written by encodeCaseFile) but whose contents point outside
// the puzzle or the trace: refused, naming what is wrong, before any view follows the index.
TEST(CaseFile, IndicesOutsideThePuzzleOrTheTraceAreRefused) {
    Puzzle p = mapPuzzle();
    auto refused = [&](const std::string& what, auto change) {
        CaseFile f = *makeCaseFile(p, mapReport(p, 0), 0, "x", someDevice());
        CaseOutcome& c = f.report.cases[0];
        auto trace = std::make_shared<Trace>(*c.trace);
        auto analysis = std::make_shared<TraceAnalysis>(*c.analysis);
        change(c, *trace, *analysis);
        c.trace = trace;
        c.analysis = analysis;
        auto opened = decodeCaseFile(encodeCaseFile(f), "bad.vkpcase");
        if (opened.ok()) return ::testing::AssertionFailure() << what << ": it opened";
        if (opened.error().message.find("bad.vkpcase is damaged") == std::string::npos)
            return ::testing::AssertionFailure() << what << ": " << opened.error().message;
        return ::testing::AssertionSuccess() << opened.error().message;
    };
    EXPECT_TRUE(refused("an event's variable", [](CaseOutcome&, Trace& t, TraceAnalysis&) {
        t.threads[0][0].variable = 7;
    }));
    EXPECT_TRUE(refused("an access without a variable", [](CaseOutcome&, Trace& t, TraceAnalysis&) {
        t.threads[0][0].variable = kTraceVariableNone;
    }));
    EXPECT_TRUE(refused("a thread too many",
                        [](CaseOutcome&, Trace& t, TraceAnalysis&) { t.threads.emplace_back(); }));
    EXPECT_TRUE(refused("a variable's buffer", [](CaseOutcome&, Trace& t, TraceAnalysis&) {
        t.variables[1].puzzleBuffer = 9;
    }));
    EXPECT_TRUE(refused("a finding's thread", [](CaseOutcome&, Trace&, TraceAnalysis& a) {
        a.findings.back().threads = {1u << 20};
    }));
    EXPECT_TRUE(refused("a printf's format", [](CaseOutcome&, Trace& t, TraceAnalysis&) {
        t.prints.push_back({0, 3, 1, 0, {}});
    }));
    EXPECT_TRUE(refused("an output's buffer",
                        [](CaseOutcome& c, Trace&, TraceAnalysis&) { c.outputs[0].buffer = 5; }));
    EXPECT_TRUE(refused("an output's size", [](CaseOutcome& c, Trace&, TraceAnalysis&) {
        c.outputs[0].actual.words.pop_back();
    }));
    EXPECT_TRUE(refused("the case",
                        [&](CaseOutcome& c, Trace&, TraceAnalysis&) { c.index = p.cases.size(); }));
}

TEST(CaseFile, HoldsOnlyAPuzzleCaseThatRan) {
    Puzzle p = mapPuzzle();
    CheckReport r = mapReport(p, 0);
    auto notRun = makeCaseFile(p, r, 1, "x", someDevice());
    ASSERT_FALSE(notRun.ok());
    EXPECT_NE(notRun.error().message.find("case 2 has not run"), std::string::npos);
    auto own = makeCaseFile(p, r, p.cases.size(), "x", someDevice());
    ASSERT_FALSE(own.ok());
    EXPECT_NE(own.error().message.find("one of your own cases"), std::string::npos)
        << own.error().message;
}

TEST(CaseFile, IsWrittenWholeAndReadBack) {
    Puzzle p = mapPuzzle();
    std::string path =
        ::testing::TempDir() + "/vkp-case-file-" + std::to_string(::getpid()) + kCaseFileExtension;
    CaseFile f = *makeCaseFile(p, mapReport(p, 0), 0, "text", someDevice());
    ASSERT_TRUE(writeCaseFile(path, f).ok());
    auto opened = readCaseFile(path);
    ASSERT_TRUE(opened.ok()) << opened.error().str();
    EXPECT_EQ(opened->path, path);
    EXPECT_EQ(opened->file.kernelText, "text");
    std::remove(path.c_str());
    auto missing = readCaseFile(path);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().str().find("no such file"), std::string::npos);
}

// A dropped file is taken for a case file by its first bytes, whatever its name; a FIFO is not
// opened (it would block), a folder or a missing file is not one.
TEST(CaseFile, IsRecognisedByItsFirstBytes) {
    Puzzle p = mapPuzzle();
    std::string dir = ::testing::TempDir() + "/vkp-case-file-looks-" + std::to_string(::getpid());
    std::filesystem::create_directories(dir);
    ASSERT_TRUE(
        writeCaseFile(dir + "/renamed.txt", *makeCaseFile(p, mapReport(p, 0), 0, "x", someDevice()))
            .ok());
    EXPECT_TRUE(looksLikeCaseFile(dir + "/renamed.txt"));
    EXPECT_FALSE(looksLikeCaseFile(p.dir + "/starter.comp"));
    EXPECT_FALSE(looksLikeCaseFile(dir));
    EXPECT_FALSE(looksLikeCaseFile(dir + "/missing.vkpcase"));
#ifndef _WIN32 // a FIFO is POSIX's kind of file
    ASSERT_EQ(::mkfifo((dir + "/fifo").c_str(), 0600), 0);
    EXPECT_FALSE(looksLikeCaseFile(dir + "/fifo"));
#endif
    std::filesystem::remove_all(dir);
}

} // namespace
} // namespace vkp
