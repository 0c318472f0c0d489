#include <gtest/gtest.h>

#include "puzzle/expr.h"
#include "puzzle/puzzle_loader.h"

namespace vkp {
namespace {

uint64_t eval(const std::string& text, uint64_t n = 100, uint64_t wg = 8) {
    auto e = Expr::parse(text);
    EXPECT_TRUE(e.ok()) << text << ": " << (e.ok() ? "" : e.error().message);
    return e.ok() ? e->evaluate({n, wg}) : ~0ull;
}

TEST(Expr, ArithmeticAndFunctions) {
    EXPECT_EQ(eval("42"), 42u);
    EXPECT_EQ(eval("N"), 100u);
    EXPECT_EQ(eval("WG * 4"), 32u);
    EXPECT_EQ(eval("1 + 2 * 3"), 7u);
    EXPECT_EQ(eval("(1 + 2) * 3"), 9u);
    EXPECT_EQ(eval("N / WG"), 12u);
    EXPECT_EQ(eval("N % WG"), 4u);
    EXPECT_EQ(eval("ceil_div(N, WG * 4)"), 4u);
    EXPECT_EQ(eval("ceil_div(N, 0)"), 0u);
    EXPECT_EQ(eval("min(N, WG)"), 8u);
    EXPECT_EQ(eval("max(N, WG)"), 100u);
    EXPECT_EQ(eval("log2ceil(N)"), 7u);
    EXPECT_EQ(eval("log2ceil(64)"), 6u);
    EXPECT_EQ(eval("pow2ceil(N)"), 128u);
    EXPECT_EQ(eval("pow2ceil(1)"), 1u);
    EXPECT_EQ(eval(" ceil_div ( N , WG ) + 1 "), 14u);
}

TEST(Expr, PowAndLogCeil) {
    EXPECT_EQ(eval("pow(WG, 2)"), 64u);
    EXPECT_EQ(eval("pow(3, 0)"), 1u);
    EXPECT_EQ(eval("pow(0, 0)"), 1u);
    EXPECT_EQ(eval("pow(2, 63)"), 1ull << 63);
    EXPECT_EQ(eval("pow(2, 64)"), 0u);            // wraps like uint64
    EXPECT_EQ(eval("pow(1, 1000000000000)"), 1u); // by squaring: no long loop
    EXPECT_EQ(eval("pow(10, 19)"), 10000000000000000000ull);
    // logceil(b, a): the least k with b^k >= a.
    EXPECT_EQ(eval("logceil(WG, N)"), 3u); // 8^2 = 64 < 100 <= 512
    EXPECT_EQ(eval("logceil(8, 64)"), 2u); // exactly a power: no extra level
    EXPECT_EQ(eval("logceil(8, 65)"), 3u);
    EXPECT_EQ(eval("logceil(2, N)"), eval("log2ceil(N)"));
    EXPECT_EQ(eval("logceil(8, 1)"), 0u);
    EXPECT_EQ(eval("logceil(8, 0)"), 0u);
    EXPECT_EQ(eval("logceil(1, N)"), 0u); // no base below 2 gets there
    EXPECT_EQ(eval("logceil(0, N)"), 0u);
    EXPECT_EQ(eval("logceil(3, 18446744073709551615)"), 41u); // 3^40 < 2^64 - 1 < 3^41: no overflow
    EXPECT_EQ(eval("logceil(18446744073709551615, 18446744073709551615)"), 1u);
    EXPECT_EQ(eval("logceil(4294967296, 18446744073709551615)"), 2u);
    // The recursive blocked scan of puzzle scan-levels: blocks of B = 8192 at N = 2^28.
    EXPECT_EQ(eval("max(1, logceil(8192, N))", 1u << 28), 3u);
    EXPECT_EQ(eval("ceil_div(N, pow(8192, 2))", 1u << 28), 4u);
}

TEST(Expr, ConstantsByName) {
    auto e = Expr::parse("ceil_div(N, WG * ITEMS)");
    ASSERT_TRUE(e.ok());
    EXPECT_EQ(e->names(), (std::vector<std::string>{"ITEMS"}));
    std::map<std::string, uint64_t> names = {{"ITEMS", 4}};
    EXPECT_EQ(e->evaluate({100, 8, &names}), 4u);
    EXPECT_EQ(e->evaluate({100, 8}),
              0u); // unknown at evaluation: 0 (the loader rejects unknown names)
}

TEST(Expr, UsesNOnlyWhenItNamesN) {
    EXPECT_TRUE(Expr::parse("ceil_div(N, WG)")->usesN());
    EXPECT_FALSE(Expr::parse("WG * 2")->usesN());
    EXPECT_FALSE(Expr::literal(5).usesN());
}

TEST(Expr, ErrorsNameTheColumn) {
    struct Row {
        const char* text;
        const char* message;
    } rows[] = {
        {"ceil_div(N, WG", "column 15: ')' expected"},
        {"N +", "column 4: a number, N, WG, a constant, a function or '(' expected"},
        {"2 +* 3", "column 4: a number, N, WG, a constant, a function or '(' expected"},
        {"min(N)", "column 6: ',' expected: min takes two arguments"},
        {"pow(N)", "column 6: ',' expected: pow takes two arguments"},
        {"logceil(8, N", "column 13: ')' expected"},
        {"N N", "column 3: unexpected 'N'"},
    };
    for (const Row& r : rows) {
        auto e = Expr::parse(r.text);
        ASSERT_FALSE(e.ok()) << r.text;
        EXPECT_NE(e.error().message.find(r.message), std::string::npos)
            << r.text << ": " << e.error().message;
    }
}

// Issue 19, item 3: parsing and evaluating recurse, so depth and length are bounded.
TEST(Expr, NestingIsBoundedAt64Levels) {
    auto nested = [](int depth) { return std::string(depth, '(') + "N" + std::string(depth, ')'); };
    EXPECT_EQ(eval(nested(kMaxExprDepth)), 100u);
    for (int depth : {kMaxExprDepth + 1, 50000, 1000000}) {
        auto e = Expr::parse(nested(depth), "workgroups");
        ASSERT_FALSE(e.ok()) << depth;
        EXPECT_NE(e.error().message.find("'workgroups'"), std::string::npos) << e.error().message;
        EXPECT_NE(e.error().message.find("column 65: it nests deeper than 64 levels"),
                  std::string::npos)
            << e.error().message;
        EXPECT_LT(e.error().message.size(), 300u) << "the message quotes the whole expression";
    }
    std::string calls;
    for (int i = 0; i < kMaxExprDepth; ++i)
        calls += "min(N, ";
    EXPECT_EQ(eval(calls + "WG" + std::string(kMaxExprDepth, ')')), 8u);
    auto deeper = Expr::parse("(" + calls + "WG" + std::string(kMaxExprDepth, ')') + ")");
    ASSERT_FALSE(deeper.ok());
    EXPECT_NE(deeper.error().message.find("nests deeper than 64 levels"), std::string::npos)
        << deeper.error().message;
    // An unclosed run of parentheses is bounded the same way, not read to its end.
    EXPECT_FALSE(Expr::parse(std::string(100000, '(')).ok());
}

TEST(Expr, LongChainsAreBounded) {
    std::string chain = "N"; // 2k + 1 nodes for k additions: the longest chain allowed
    for (size_t k = 0; k < (kMaxExprNodes - 1) / 2; ++k)
        chain += "+N";
    EXPECT_EQ(eval(chain), 100u * ((kMaxExprNodes - 1) / 2 + 1));
    EXPECT_FALSE(Expr::parse(chain + "+N").ok());
    for (const char* op : {"+N", "*1", " - WG", "/1", "%7"}) {
        std::string longChain = "N";
        for (int i = 0; i < 200000; ++i)
            longChain += op;
        auto e = Expr::parse(longChain);
        ASSERT_FALSE(e.ok()) << op;
        EXPECT_NE(e.error().message.find("more than 512 numbers, names and operators"),
                  std::string::npos)
            << e.error().message;
    }
}

TEST(Expr, DivisionByZeroIsNamedWhenChecked) {
    struct Row {
        const char* text;
        const char* message;
    } rows[] = {
        {"N / 0", "division by zero in the expression of 'workgroups' (\"N / 0\"), column 3"},
        {"N % (WG - 8)", "column 3"},
        {"1 + ceil_div(N, N - 100)", "column 5"},
        {"min(4, N / (WG - WG))", "column 10"},
    };
    for (const Row& r : rows) {
        auto e = Expr::parse(r.text);
        ASSERT_TRUE(e.ok()) << r.text;
        EXPECT_EQ(e->evaluate({100, 8}), e->text() == "1 + ceil_div(N, N - 100)" ? 1u : 0u)
            << r.text; // unchecked: 0, as documented
        auto v = e->evaluateChecked({100, 8}, "workgroups");
        ASSERT_FALSE(v.ok()) << r.text;
        EXPECT_NE(v.error().message.find(r.message), std::string::npos) << v.error().message;
    }
    auto fine = Expr::parse("N / (WG - 4)");
    ASSERT_TRUE(fine.ok());
    EXPECT_EQ(*fine->evaluateChecked({100, 8}), 25u);
    EXPECT_FALSE(fine->evaluateChecked({100, 4}).ok()); // zero only in this case
}

TEST(Expr, WrapsAreNamedWhenChecked) {
    struct Row {
        const char* text;
        const char* message;
    } rows[] = {
        {"WG - N", "a subtraction below 0 in the expression of 'repeat' (\"WG - N\"), column 4 "
                   "(sizes are whole numbers from 0 to 2^64 - 1 in this case)"},
        {"pow(2, 64) + 8", "a result past 2^64 - 1 in the expression of 'repeat' (\"pow(2, 64) + "
                           "8\"), column 1"},
        {"pow2(64)", "a result past 2^64 - 1"},
        {"18446744073709551615 + 1", "column 22"},
        {"4294967296 * 4294967296", "column 12"},
        {"min(1, N - 101)", "a subtraction below 0"}, // min would hide it unchecked
    };
    for (const Row& r : rows) {
        auto e = Expr::parse(r.text);
        ASSERT_TRUE(e.ok()) << r.text;
        auto v = e->evaluateChecked({100, 8}, "repeat");
        ASSERT_FALSE(v.ok()) << r.text;
        EXPECT_NE(v.error().message.find(r.message), std::string::npos) << v.error().message;
    }
    // At the edges of uint64: no wrap.
    for (const char* fine : {"pow(2, 63) + (pow(2, 63) - 1)", "4294967296 * 4294967295", "N - 100",
                             "pow(10, 19)", "pow(1, 1000000000000)", "pow(0, 99)"}) {
        auto e = Expr::parse(fine);
        ASSERT_TRUE(e.ok()) << fine;
        EXPECT_TRUE(e->evaluateChecked({100, 8}).ok()) << fine;
    }
}

const char* kSized = R"toml(title = "T"
track = "t"
order = 1
statement = "s"
hints = ["h"]
[[buffers]]
name = "a"
binding = 0
type = "uint"
role = "input"
[[buffers]]
name = "tiles"
binding = 1
type = "uint"
role = "scratch"
size = "ceil_div(N, WG * 4) + 1"
[[buffers]]
name = "result"
binding = 2
type = "uint"
role = "output"
[[constants]]
name = "TILE"
id = 3
[[cases]]
workgroup_size = [8]
workgroups = ["ceil_div(N, WG * 4)"]
constants = { TILE = "WG * 4" }
inputs.a = { shape = [100], fill = "iota" }
expected.result = { op = "inclusive_scan", args = ["a"] }
)toml";

TEST(ExprInPuzzles, SizesWorkgroupsAndConstantsFollowTheData) {
    auto p = parsePuzzle(kSized, "p.toml", "/tmp/01-p");
    ASSERT_TRUE(p.ok()) << p.error().str();
    const TestCase& c = p->cases[0];
    EXPECT_EQ(c.workgroups[0], 4u);
    EXPECT_EQ(c.constants.at(3), 32u);
    ASSERT_TRUE(c.data[1].has_value());
    EXPECT_EQ(c.data[1]->shape.count(), 5u); // ceil(100 / 32) + 1, zero-filled
    EXPECT_EQ(c.data[1]->kind, DataSpec::Kind::Constant);
    // Re-evaluated for another N, as a benchmark does.
    EXPECT_EQ(c.workgroupExprs[0].evaluate({1u << 20, 8}), (1u << 20) / 32);
    EXPECT_EQ(p->buffers[1].size->evaluate({1u << 20, 8}), (1u << 20) / 32 + 1);
    auto data = materializeCase(*p, 0);
    ASSERT_TRUE(data.ok());
    EXPECT_EQ(data->initial[1].words, std::vector<uint32_t>(5, 0));
}

TEST(ExprInPuzzles, BadExpressionsPointAtTheirLine) {
    std::string text = kSized;
    text.replace(text.find("\"ceil_div(N, WG * 4)\"]"), 22, "\"ceil_div(N, WG * 4\"]");
    auto p = parsePuzzle(text, "p.toml", "/tmp/01-p");
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().where.line, 27);
    EXPECT_NE(p.error().message.find("')' expected"), std::string::npos) << p.error().message;
    std::string zero = kSized;
    zero.replace(zero.find("\"ceil_div(N, WG * 4)\"]"), 22, "\"N - N\"]");
    auto z = parsePuzzle(zero, "p.toml", "/tmp/01-p");
    ASSERT_FALSE(z.ok());
    EXPECT_NE(z.error().message.find("'workgroups' is 0; it must be between 1 and 65535"),
              std::string::npos)
        << z.error().message;
    std::string onInput = kSized;
    onInput.replace(onInput.find("role = \"input\""), 14, "role = \"input\"\nsize = \"N\"");
    auto i = parsePuzzle(onInput, "p.toml", "/tmp/01-p");
    ASSERT_FALSE(i.ok());
    EXPECT_NE(i.error().message.find("'size' is for scratch buffers"), std::string::npos);
}

} // namespace
} // namespace vkp

namespace vkp {
namespace {

TEST(ExprInPuzzles, ConstantsNameTilesInSizesAndCounts) {
    std::string text = R"toml(title = "T"
track = "t"
order = 1
statement = "s"
hints = ["h"]
[[buffers]]
name = "a"
binding = 0
type = "uint"
role = "input"
[[buffers]]
name = "status"
binding = 1
type = "uint"
role = "scratch"
size = "ceil_div(N, WG * ITEMS)"
[[buffers]]
name = "result"
binding = 2
type = "uint"
role = "output"
[[constants]]
name = "ITEMS"
id = 3
[[constants]]
name = "SHARED_SIZE"
id = 4
[[cases]]
workgroup_size = [32]
workgroups = ["ceil_div(N, WG * ITEMS)"]
constants = { ITEMS = 4, SHARED_SIZE = "WG * 2" }
inputs.a = { shape = [1000], fill = "iota" }
expected.result = { op = "inclusive_scan", args = ["a"] }
)toml";
    auto p = parsePuzzle(text, "p.toml", "/tmp/01-p");
    ASSERT_TRUE(p.ok()) << p.error().str();
    EXPECT_EQ(p->cases[0].workgroups[0], 8u);          // ceil(1000 / 128)
    EXPECT_EQ(p->cases[0].data[1]->shape.count(), 8u); // status: one word per tile
    EXPECT_EQ(p->cases[0].constants.at(4), 64u);
    std::string cyclic = text;
    cyclic.replace(cyclic.find("SHARED_SIZE = \"WG * 2\""), 22, "SHARED_SIZE = \"ITEMS * 2\"");
    auto c = parsePuzzle(cyclic, "p.toml", "/tmp/01-p");
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find("cannot use another constant ('ITEMS')"), std::string::npos)
        << c.error().message;
    std::string unknown = text;
    unknown.replace(unknown.find("WG * ITEMS)\"]"), 13, "WG * TILES)\"]");
    auto u = parsePuzzle(unknown, "p.toml", "/tmp/01-p");
    ASSERT_FALSE(u.ok());
    EXPECT_NE(u.error().message.find("unknown name 'TILES'"), std::string::npos)
        << u.error().message;
    EXPECT_EQ(u.error().where.line, 30); // the workgroups line
}

} // namespace
} // namespace vkp
