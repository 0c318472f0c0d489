#include "shader/compiler.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "base/helper_process.h"
#include "base/source_text.h"
#include "shader/spirv_tools.h"

#include <shaderc/shaderc.hpp>

namespace vkp {
namespace {

// glslang quotes the offending token first: "'foo' : undeclared identifier".
int columnOf(const std::string& message, const std::string& line) {
    if (message.size() < 3 || message[0] != '\'') return 0;
    size_t close = message.find('\'', 1);
    if (close == std::string::npos || close == 1) return 0;
    std::string token = message.substr(1, close - 1);
    auto isWord = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    bool wordToken = isWord(token.front()) && isWord(token.back());
    // A whole-word match, so that 'n' is not found inside "uint".
    for (size_t at = line.find(token); at != std::string::npos; at = line.find(token, at + 1)) {
        bool before = at > 0 && isWord(line[at - 1]);
        bool after = at + token.size() < line.size() && isWord(line[at + token.size()]);
        if (!wordToken || (!before && !after)) return static_cast<int>(at) + 1;
    }
    return 0;
}

// glslang's internal type spellings ("layout( column_major std430) temp highp int") become the
// GLSL a learner wrote ("int"); "'foo' : msg" becomes "'foo': msg".
std::string tidy(std::string message) {
    static const std::regex noise(
        R"(layout\([^)]*\)\s*|\btemp\s+|\b(highp|mediump|lowp)\s+|\bconst \(high\s*\)\s*)");
    message = std::regex_replace(message, noise, "");
    message = std::regex_replace(message, std::regex("' *: +"), "': ");
    message =
        std::regex_replace(message, std::regex("(^|\\s)' +"), "$1'"); // "' float'" -> "'float'"
    message = std::regex_replace(message, std::regex("  +"), " ");
    if (message.rfind("'': ", 0) == 0) message.erase(0, 4); // glslang's empty token quote
    while (!message.empty() && (message.back() == ' ' || message.back() == '\n'))
        message.pop_back();
    return message;
}

// glslang names tokens in syntax errors by its grammar's names ("unexpected IDENTIFIER, expecting
// COMMA or SEMICOLON"); a learner reads them as they are written.
std::string tokenName(const std::string& name) {
    static const std::map<std::string, std::string> names = {
        {"SEMICOLON", "';'"},
        {"COMMA", "','"},
        {"LEFT_BRACE", "'{'"},
        {"RIGHT_BRACE", "'}'"},
        {"LEFT_PAREN", "'('"},
        {"RIGHT_PAREN", "')'"},
        {"LEFT_BRACKET", "'['"},
        {"RIGHT_BRACKET", "']'"},
        {"DOT", "'.'"},
        {"EQUAL", "'='"},
        {"COLON", "':'"},
        {"QUESTION", "'?'"},
        {"PLUS", "'+'"},
        {"DASH", "'-'"},
        {"STAR", "'*'"},
        {"SLASH", "'/'"},
        {"PERCENT", "'%'"},
        {"BANG", "'!'"},
        {"TILDE", "'~'"},
        {"LEFT_ANGLE", "'<'"},
        {"RIGHT_ANGLE", "'>'"},
        {"VERTICAL_BAR", "'|'"},
        {"AMPERSAND", "'&'"},
        {"CARET", "'^'"},
        {"INC_OP", "'++'"},
        {"DEC_OP", "'--'"},
        {"LE_OP", "'<='"},
        {"GE_OP", "'>='"},
        {"EQ_OP", "'=='"},
        {"NE_OP", "'!='"},
        {"AND_OP", "'&&'"},
        {"OR_OP", "'||'"},
        {"XOR_OP", "'^^'"},
        {"LEFT_OP", "'<<'"},
        {"RIGHT_OP", "'>>'"},
        {"ADD_ASSIGN", "'+='"},
        {"SUB_ASSIGN", "'-='"},
        {"MUL_ASSIGN", "'*='"},
        {"DIV_ASSIGN", "'/='"},
        {"MOD_ASSIGN", "'%='"},
        {"AND_ASSIGN", "'&='"},
        {"OR_ASSIGN", "'|='"},
        {"XOR_ASSIGN", "'^='"},
        {"LEFT_ASSIGN", "'<<='"},
        {"RIGHT_ASSIGN", "'>>='"},
        {"IDENTIFIER", "a name"},
        {"TYPE_NAME", "a type name"},
        {"INTCONSTANT", "a number"},
        {"UINTCONSTANT", "a number"},
        {"FLOATCONSTANT", "a number"},
        {"DOUBLECONSTANT", "a number"},
        {"BOOLCONSTANT", "true or false"},
        {"end of file", "the end of the kernel"}};
    auto it = names.find(name);
    if (it != names.end()) return it->second;
    // Keywords are their own spelling in capitals (IF, FOR, UINT); other names stay as they are.
    bool word = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isupper(static_cast<unsigned char>(c));
    });
    if (!word) return name;
    std::string lower = name;
    for (char& c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return "'" + lower + "'";
}

// A line without its // comment and trailing white space.
std::string codeOf(std::string line) {
    size_t comment = line.find("//");
    if (comment != std::string::npos) line.erase(comment);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
        line.pop_back();
    return line;
}

// Where a '{' is never closed: its line and column, or {0, 0}. Braces pair up as a compiler pairs
// them, but a '}' indented less than the line of the innermost open '{' is taken to close an outer
// block, so the block it skipped is the one missing its '}' (what a reader of the indentation
// sees). Comments are skipped.
std::pair<int, int> unclosedBrace(const std::string& source) {
    struct Open {
        int line, column, indent;
    };
    std::vector<Open> open;
    std::optional<Open> skipped;
    int line = 1;
    size_t lineStart = 0;
    auto indentAt = [&](size_t from) {
        size_t i = from;
        while (i < source.size() && (source[i] == ' ' || source[i] == '\t'))
            ++i;
        return static_cast<int>(i - from);
    };
    for (size_t i = 0; i < source.size(); ++i) {
        char c = source[i];
        if (c == '\n') {
            ++line;
            lineStart = i + 1;
        } else if (source.compare(i, 2, "//") == 0) {
            while (i + 1 < source.size() && source[i + 1] != '\n')
                ++i;
        } else if (source.compare(i, 2, "/*") == 0) {
            size_t end = source.find("*/", i + 2);
            end = end == std::string::npos ? source.size() : end + 1;
            for (; i < end; ++i)
                if (source[i] == '\n') ++line, lineStart = i + 1;
        } else if (c == '{') {
            open.push_back({line, static_cast<int>(i - lineStart) + 1, indentAt(lineStart)});
        } else if (c == '}' && !open.empty()) {
            int indent = indentAt(lineStart);
            bool firstOnLine = static_cast<int>(i - lineStart) == indent;
            while (firstOnLine && open.size() > 1 && open.back().indent > indent) {
                if (!skipped) skipped = open.back();
                open.pop_back();
            }
            open.pop_back();
        }
    }
    if (skipped) return {skipped->line, skipped->column};
    if (!open.empty()) return {open.back().line, open.back().column};
    return {0, 0};
}

// "'half': Reserved word.": GLSL keeps some words for itself (half, input, output, filter,
// sample...), which a learner takes for ordinary names; say what to do.
void explainReservedWord(Diagnostic& d) {
    static const std::regex reserved(R"(^'([A-Za-z_0-9]+)': Reserved word\.?$)");
    std::smatch m;
    if (!std::regex_match(d.message, m, reserved)) return;
    d.message = "'" + m[1].str() + "' is a word GLSL keeps for itself (reserved), not a name: " +
                "call it something else";
}

// glslang's "'' : syntax error, unexpected end of file".
bool isEndOfFile(const std::string& message) {
    return message.find("syntax error, unexpected end of file") != std::string::npos;
}

// glslang reports a syntax error at the token after the mistake, in its grammar's words: a
// missing ';' shows up on the next line as "'' : syntax error, unexpected IDENTIFIER, expecting
// COMMA or SEMICOLON". Say it as a learner would, and where the ';' is missing.
void explainSyntaxError(Diagnostic& d, const std::string& source) {
    static const std::regex syntax(
        R"(^'[^']*' *: *syntax error, unexpected (.+?)(?:, expecting (.+))?$)");
    std::smatch m;
    if (!std::regex_match(d.message, m, syntax)) return;
    std::string unexpected = m[1], expecting = m[2];
    std::vector<std::string> expected;
    static const std::regex orList(" or ");
    for (std::sregex_token_iterator it(expecting.begin(), expecting.end(), orList, -1), end;
         it != end; ++it)
        if (!it->str().empty()) expected.push_back(*it);
    std::string found = tokenName(unexpected);

    if (unexpected == "end of file") {
        auto [line, column] = unclosedBrace(source);
        if (line == 0) {
            d.message = "the kernel ends in the middle of a statement";
            return;
        }
        d.message = "this '{' is never closed: a '}' is missing";
        d.line = line;
        d.column = column;
        return;
    }
    std::string here = codeOf(sourceLine(source, d.line));
    size_t first = here.find_first_not_of(" \t");
    // A missing ';': the parser wanted one where the next line begins, and the line before ends
    // like the end of a statement (not with an operator or an opening bracket).
    bool wantsSemicolon =
        std::find(expected.begin(), expected.end(), "SEMICOLON") != expected.end();
    if (wantsSemicolon && first != std::string::npos) {
        char start = here[first];
        bool startsWord = std::isalpha(static_cast<unsigned char>(start)) || start == '_';
        bool tokenStartsLine =
            found.size() == 3 && found[0] == '\'' ? start == found[1] : startsWord;
        int previous = d.line - 1;
        while (previous > 0 &&
               codeOf(sourceLine(source, previous)).find_first_not_of(" \t") == std::string::npos)
            --previous;
        std::string before = previous > 0 ? codeOf(sourceLine(source, previous)) : "";
        char last = before.empty() ? ';' : before.back();
        bool endsStatement = std::isalnum(static_cast<unsigned char>(last)) || last == '_' ||
                             last == ')' || last == ']' || last == '.';
        if (tokenStartsLine && endsStatement && before.find('#') == std::string::npos) {
            d.line = previous;
            d.column = static_cast<int>(before.size()) + 1;
            d.message =
                "missing ';' at the end of this line (the next line starts with " + found + ")";
            return;
        }
    }
    std::string list;
    for (size_t i = 0; i < expected.size(); ++i)
        list += (i == 0 ? "" : i + 1 == expected.size() ? " or " : ", ") + tokenName(expected[i]);
    d.message = list.empty() ? "syntax error: " + found + " was not expected here"
                             : "syntax error: found " + found + " where " + list + " was expected";
    // A punctuation token that appears once on the line is surely the one meant.
    if (found.size() >= 3 && found[0] == '\'') {
        std::string token = found.substr(1, found.size() - 2);
        size_t at = here.find(token);
        if (at != std::string::npos && here.find(token, at + 1) == std::string::npos)
            d.column = static_cast<int>(at) + 1;
    }
}

// An array sized by a specialization constant (`shared float cache[SHARED_SIZE];`) has the
// constant's default size when glslang compiles it: the test case's value arrives only when the
// kernel runs. A constant index past that default is "'[' : array index out of range '3'" to
// glslang, which says neither which array nor why. Name both, and what to do instead.
struct ConstantIndex {
    std::string array;    // the indexed array
    int column = 0;       // where its name starts on the line, 1-based
    std::string size;     // the specialization constant that sizes it
    std::string fallback; // that constant's default, as written
};

// std::regex recurses as it matches, so it only ever sees a line of ordinary length: a pasted
// megabyte of spaces must not exhaust the app's stack. Declarations fit on one line.
constexpr size_t kRegexLineLimit = 2000;

// The first group of the first match of `re` on a line of `source` no longer than kRegexLineLimit.
std::optional<std::string> firstCaptureOnShortLines(const std::string& source,
                                                    const std::regex& re) {
    std::smatch m;
    for (size_t start = 0; start < source.size();) {
        size_t end = source.find('\n', start);
        if (end == std::string::npos) end = source.size();
        if (end - start <= kRegexLineLimit) {
            std::string line = source.substr(start, end - start);
            if (std::regex_search(line, m, re)) return m[1].str();
        }
        start = end + 1;
    }
    return std::nullopt;
}

// The specialization constant `name` and its default, when the source declares one.
std::optional<std::string> specConstantDefault(const std::string& source, const std::string& name) {
    const std::regex decl("constant_id\\s*=\\s*\\d+\\s*\\)\\s*const\\s+\\w+\\s+" + name +
                          "\\s*=\\s*([^;\\s]+)\\s*;");
    return firstCaptureOnShortLines(source, decl);
}

// The size of dimension `dim` of the array `name` as declared ("cache[SHARED_SIZE]"), if a word.
std::optional<std::string> declaredSize(const std::string& source, const std::string& name,
                                        size_t dim) {
    const std::regex decl("\\b\\w+\\s+" + name + "\\s*((?:\\[\\s*\\w+\\s*\\]\\s*)+);");
    auto dimsText = firstCaptureOnShortLines(source, decl);
    if (!dimsText) return std::nullopt;
    static const std::regex bracket("\\[\\s*(\\w+)\\s*\\]");
    const std::string& dims = *dimsText;
    size_t i = 0;
    for (std::sregex_iterator it(dims.begin(), dims.end(), bracket), end; it != end; ++it, ++i)
        if (i == dim) return (*it)[1].str();
    return std::nullopt;
}

// On `line`, an index written as the number `index` into an array sized by a specialization
// constant: `cache[3]`, or `tile[0][3]` for the second dimension.
std::optional<ConstantIndex> findConstantIndex(const std::string& source, const std::string& line,
                                               const std::string& index) {
    if (line.size() > kRegexLineLimit) return std::nullopt;
    static const std::regex access("\\b([A-Za-z_]\\w*)\\s*((?:\\[[^\\[\\]]*\\]\\s*)+)");
    static const std::regex bracket("\\[\\s*([^\\[\\]]*?)\\s*\\]");
    for (std::sregex_iterator it(line.begin(), line.end(), access), end; it != end; ++it) {
        std::string name = (*it)[1], subscripts = (*it)[2];
        size_t dim = 0;
        for (std::sregex_iterator b(subscripts.begin(), subscripts.end(), bracket); b != end;
             ++b, ++dim) {
            std::string written = (*b)[1];
            if (written != index && written != index + "u") continue;
            auto size = declaredSize(source, name, dim);
            if (!size) continue;
            auto fallback = specConstantDefault(source, *size);
            if (fallback)
                return ConstantIndex{name, static_cast<int>(it->position(1)) + 1, *size, *fallback};
        }
    }
    return std::nullopt;
}

void explainConstantIndex(Diagnostic& d, const std::string& source) {
    static const std::regex outOfRange(R"(^'\[' *: *array index out of range '(\d+)'$)");
    std::smatch m;
    if (!std::regex_match(d.message, m, outOfRange)) return;
    auto found = findConstantIndex(source, codeOf(sourceLine(source, d.line)), m[1]);
    if (!found) return;
    d.column = found->column;
    d.message = "index " + m[1].str() + " is out of range for '" + found->array + "': its size " +
                found->size + " is a specialization constant whose default is " + found->fallback +
                " in the compiler's view (the test case sets the real size only when the kernel "
                "runs), so constant "
                "indexes past it are rejected. Use an index computed at run time (from "
                "gl_LocalInvocationID.x, "
                "say), or give " +
                found->size + " a larger default";
}

// The #version directive: the first thing in a shader but comments and white space.
struct VersionLine {
    bool found = false;
    int line = 1; // where it is, or where the first other token is
    int column = 1;
    int number = 0;      // 0 when it has none
    std::string profile; // "es", "core", "compatibility" or ""
};

VersionLine findVersion(const std::string& source) {
    VersionLine v;
    size_t i = 0, lineStart = 0;
    int line = 1;
    auto newline = [&](size_t at) {
        ++line;
        lineStart = at + 1;
    };
    while (i < source.size()) {
        char c = source[i];
        if (c == '\n') {
            newline(i++);
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (source.compare(i, 2, "//") == 0) {
            while (i < source.size() && source[i] != '\n')
                ++i;
        } else if (source.compare(i, 2, "/*") == 0) {
            size_t end = source.find("*/", i + 2);
            end = end == std::string::npos ? source.size() : end + 2;
            for (; i < end; ++i)
                if (source[i] == '\n') newline(i);
        } else {
            break;
        }
    }
    v.line = line;
    v.column = static_cast<int>(i - lineStart) + 1;
    size_t end = source.find('\n', i);
    std::istringstream directive(
        source.substr(i, end == std::string::npos ? std::string::npos : end - i));
    std::string hash, word;
    directive >> hash;
    if (hash == "#")
        directive >> word;
    else if (hash.rfind("#", 0) == 0)
        word = hash.substr(1);
    if (word != "version") return v;
    v.found = true;
    if (!(directive >> v.number)) v.number = 0;
    directive >> v.profile;
    return v;
}

// glslang cannot build its built-in functions for a compute shader without a #version (or a
// number in it), or with a desktop version before 150 (ES: 300): it then prints all of them (4500
// lines) to stdout - into a grader's
// --json output - before its error. Those kernels are refused here, before glslang sees them.
std::optional<Diagnostic> versionTooOld(const std::string& source, const std::string& fileName) {
    VersionLine v = findVersion(source);
    std::string advice = "compute shaders need GLSL 430 or newer; the puzzles use #version 450";
    if (!v.found)
        return Diagnostic{
            fileName, v.line, v.column, SeverityKind::Error,
            "a kernel must start with its GLSL version: add the line #version 450 first (" +
                advice + ")"};
    if (v.number <= 0)
        return Diagnostic{fileName, v.line, v.column, SeverityKind::Error,
                          "the #version line needs a version number, such as #version 450 (" +
                              advice + ")"};
    bool es = v.profile == "es";
    if (v.number != 100 && v.number < (es ? 300 : 150))
        return Diagnostic{fileName, v.line, v.column, SeverityKind::Error,
                          "#version " + std::to_string(v.number) + (es ? " es" : "") +
                              " is too old for a compute shader (" + advice + ")"};
    return std::nullopt;
}

} // namespace

std::vector<Diagnostic> parseCompilerMessages(const std::string& text, const std::string& source,
                                              const std::string& fileName) {
    static const std::regex withLine(R"(^(.*?):(\d+): (error|warning|note): (.*)$)");
    static const std::regex withoutLine(R"(^(.*?): (error|warning|note): (.*)$)");
    std::vector<Diagnostic> out;
    std::istringstream in(text);
    std::string row;
    std::smatch m;
    while (std::getline(in, row)) {
        Diagnostic d;
        d.file = fileName;
        std::string sev;
        if (std::regex_match(row, m, withLine)) {
            // A `#line` directive can make the number huge; past int it is left unknown (0).
            std::string digits = m[2];
            std::from_chars(digits.data(), digits.data() + digits.size(), d.line);
            sev = m[3];
            d.message = m[4];
        } else if (std::regex_match(row, m, withoutLine)) {
            sev = m[2];
            d.message = m[3];
            // "#version: compute shaders require ..." names no line: it is the #version line's.
            if (d.message.rfind("#version", 0) == 0) d.line = findVersion(source).line;
        } else {
            continue; // summary lines such as "1 error generated."
        }
        d.severity = sev == "error"     ? SeverityKind::Error
                     : sev == "warning" ? SeverityKind::Warning
                                        : SeverityKind::Note;
        if (d.line > 0) d.column = columnOf(d.message, sourceLine(source, d.line));
        // glslang stops parsing at some errors (a reserved word used as a name: `float half`)
        // and then reports the end of the kernel there: not a second mistake of the learner's.
        bool stopped =
            isEndOfFile(d.message) && std::any_of(out.begin(), out.end(), [&](const Diagnostic& e) {
                return e.severity == SeverityKind::Error && e.line == d.line;
            });
        if (stopped) continue;
        if (d.line > 0) explainSyntaxError(d, source);
        if (d.line > 0) explainConstantIndex(d, source);
        d.message = tidy(d.message);
        explainReservedWord(d);
        out.push_back(std::move(d));
    }
    return out;
}

namespace {

// What the helper process is asked.
enum class HelperRequest : uint32_t { Compile = 1, Validate = 2 };

// In the helper process: one glslang run, answered as shaderc gave it (status, messages, words).
Encoder compileInHelper(Decoder& d) {
    static shaderc::Compiler compiler; // per helper process; built on its first compile
    std::string source, fileName;
    uint32_t debugInfo = 0, optimize = 0;
    Encoder e;
    if (!d.str(source) || !d.str(fileName) || !d.u32(debugInfo) || !d.u32(optimize)) {
        e.u32(shaderc_compilation_status_internal_error);
        e.str("garbled compile request");
        e.words({});
        return e;
    }
    shaderc::CompileOptions opts;
    opts.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
    opts.SetTargetSpirv(shaderc_spirv_version_1_5);
    opts.SetSourceLanguage(shaderc_source_language_glsl);
    if (debugInfo) opts.SetGenerateDebugInfo();
    opts.SetOptimizationLevel(optimize ? shaderc_optimization_level_performance
                                       : shaderc_optimization_level_zero);
    auto r =
        compiler.CompileGlslToSpv(source, shaderc_compute_shader, fileName.c_str(), "main", opts);
    e.u32(r.GetCompilationStatus());
    e.str(r.GetErrorMessage());
    std::vector<uint32_t> words(r.cbegin(), r.cend());
    e.words(words);
    return e;
}

Encoder validateInHelper(Decoder& d) {
    std::vector<uint32_t> words;
    Encoder e;
    Status s = d.words(words) ? validateSpirv(words)
                              : Status(Error{ErrorKind::Internal, "garbled validation request"});
    e.u32(s.ok());
    if (!s) encodeError(e, s.error());
    return e;
}

Encoder serveRequest(uint32_t kind, Decoder& d) {
    if (kind == static_cast<uint32_t>(HelperRequest::Validate)) return validateInHelper(d);
    return compileInHelper(d);
}

// The line whose expression is the likeliest to have overflowed the compiler's stack: the one
// with the most operators and brackets; 0 when no line stands out.
std::pair<int, int> heaviestLine(const std::string& source) {
    constexpr int kStandsOut = 64;
    int best = 0, bestScore = 0, line = 1, score = 0;
    for (size_t i = 0; i <= source.size(); ++i) {
        char c = i < source.size() ? source[i] : '\n';
        if (c == '\n') {
            if (score > bestScore) best = line, bestScore = score;
            ++line;
            score = 0;
        } else if (std::strchr("+-*/%&|^<>=!?:([{~", c)) {
            ++score;
        }
    }
    if (bestScore < kStandsOut) return {0, 0};
    return {best, bestScore};
}

} // namespace

uint64_t compileTimeoutMs() {
    if (const char* env = std::getenv("VKPUZZLES_COMPILE_TIMEOUT")) {
        char* end = nullptr;
        unsigned long seconds = std::strtoul(env, &end, 10);
        if (end != env && *end == '\0' && seconds >= 1 && seconds <= 3600) return seconds * 1000;
    }
    return 60000;
}

Diagnostic compilerCrashDiagnostic(const std::string& source, const std::string& fileName,
                                   const Error& how) {
    std::string what = how.kind == ErrorKind::Timeout ? "the compiler did not finish on this kernel"
                                                      : "the compiler crashed on this kernel";
    std::string detail =
        how.message.rfind("it ", 0) == 0 ? "its process " + how.message.substr(3) : how.message;
    auto [line, operators] = heaviestLine(source);
    std::string advice =
        line > 0 ? "simplify the expression at line " + std::to_string(line) + " if you can (" +
                       std::to_string(operators) + " operators and brackets on one line)"
                 : "no line stands out: look for a very long or deeply nested expression";
    return {fileName, line, line > 0 ? 1 : 0, SeverityKind::Error,
            what + " (" + detail + "); " + advice};
}

// glslang and the validator run in a helper process of their own (base/helper_process.h).
const HelperRegistration kCompilerHelper{"compiler", serveRequest};

struct Compiler::Impl {
    HelperProcess helper{"compiler"};
};

Compiler::Compiler() : m_impl(std::make_unique<Impl>()) {}
Compiler::~Compiler() = default;

CompileResult Compiler::compile(const std::string& source, const std::string& fileName,
                                const CompileOptions& options) const {
    CompileResult out;
    if (auto tooOld = versionTooOld(source, fileName)) {
        out.diagnostics.push_back(std::move(*tooOld));
        return out;
    }
    Encoder request;
    request.str(source);
    request.str(fileName);
    request.u32(options.debugInfo);
    request.u32(options.optimize);
    auto answer = m_impl->helper.call(static_cast<uint32_t>(HelperRequest::Compile), request,
                                      compileTimeoutMs());
    if (!answer) {
        out.compilerCrashed = answer.error().kind == ErrorKind::WorkerCrashed ||
                              answer.error().kind == ErrorKind::Timeout;
        out.diagnostics.push_back(
            out.compilerCrashed
                ? compilerCrashDiagnostic(source, fileName, answer.error())
                : Diagnostic{fileName, 0, 0, SeverityKind::Error,
                             "the compiler could not be started: " + answer.error().message});
        return out;
    }
    Decoder d(*answer);
    uint32_t status = 0;
    std::string messages;
    std::vector<uint32_t> words;
    if (!d.u32(status) || !d.str(messages) || !d.words(words)) {
        out.diagnostics.push_back({fileName, 0, 0, SeverityKind::Error,
                                   "garbled answer from the compiler's helper process"});
        return out;
    }
    out.diagnostics = parseCompilerMessages(messages, source, fileName);
    if (status != shaderc_compilation_status_success) {
        if (!hasErrors(out.diagnostics))
            out.diagnostics.push_back({fileName, 0, 0, SeverityKind::Error, tidy(messages)});
        return out;
    }
    out.spirv = std::move(words);
    return out;
}

Status Compiler::validate(std::span<const uint32_t> spirv) const {
    Encoder request;
    request.words(spirv);
    auto answer = m_impl->helper.call(static_cast<uint32_t>(HelperRequest::Validate), request,
                                      compileTimeoutMs());
    if (!answer)
        return Error{ErrorKind::Internal,
                     "SPIR-V validation failed to finish (" + answer.error().message + ")"};
    Decoder d(*answer);
    uint32_t ok = 0;
    if (!d.u32(ok))
        return Error{ErrorKind::Internal, "garbled answer from the validator's helper process"};
    if (ok) return okStatus();
    Error e;
    if (!decodeError(d, e))
        return Error{ErrorKind::Internal, "garbled answer from the validator's helper process"};
    return e;
}

void Compiler::warmUp() const {
    compile("#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n", "warm-up.comp");
}

int Compiler::helperPid() const {
    return m_impl->helper.pid();
}
int Compiler::restarts() const {
    return m_impl->helper.restarts();
}

} // namespace vkp
