#include "shader/compiler.h"

#include <regex>
#include <sstream>

#include "core/source_text.h"

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
    static const std::regex noise(R"(layout\([^)]*\)\s*|\btemp\s+|\b(highp|mediump|lowp)\s+|\bconst \(high\s*\)\s*)");
    message = std::regex_replace(message, noise, "");
    message = std::regex_replace(message, std::regex("' *: +"), "': ");
    message = std::regex_replace(message, std::regex("(^|\\s)' +"), "$1'"); // "' float'" -> "'float'"
    message = std::regex_replace(message, std::regex("  +"), " ");
    while (!message.empty() && (message.back() == ' ' || message.back() == '\n')) message.pop_back();
    return message;
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
            d.line = std::stoi(m[2]);
            sev = m[3];
            d.message = m[4];
        } else if (std::regex_match(row, m, withoutLine)) {
            sev = m[2];
            d.message = m[3];
        } else {
            continue; // summary lines such as "1 error generated."
        }
        d.severity = sev == "error" ? SeverityKind::Error : sev == "warning" ? SeverityKind::Warning : SeverityKind::Note;
        if (d.line > 0) d.column = columnOf(d.message, sourceLine(source, d.line));
        d.message = tidy(d.message);
        out.push_back(std::move(d));
    }
    return out;
}

struct Compiler::Impl {
    shaderc::Compiler compiler;
};

Compiler::Compiler() : m_impl(std::make_unique<Impl>()) {}
Compiler::~Compiler() = default;

CompileResult Compiler::compile(const std::string& source, const std::string& fileName,
                                const CompileOptions& options) const {
    shaderc::CompileOptions opts;
    opts.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
    opts.SetTargetSpirv(shaderc_spirv_version_1_5);
    opts.SetSourceLanguage(shaderc_source_language_glsl);
    if (options.debugInfo) opts.SetGenerateDebugInfo();
    opts.SetOptimizationLevel(options.optimize ? shaderc_optimization_level_performance
                                               : shaderc_optimization_level_zero);
    auto r = m_impl->compiler.CompileGlslToSpv(source, shaderc_compute_shader, fileName.c_str(), "main", opts);
    CompileResult out;
    out.diagnostics = parseCompilerMessages(r.GetErrorMessage(), source, fileName);
    if (r.GetCompilationStatus() != shaderc_compilation_status_success) {
        if (!hasErrors(out.diagnostics))
            out.diagnostics.push_back({fileName, 0, 0, SeverityKind::Error, tidy(r.GetErrorMessage())});
        return out;
    }
    out.spirv.assign(r.cbegin(), r.cend());
    return out;
}

void Compiler::warmUp() const {
    compile("#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n", "warm-up.comp");
}

} // namespace vkp
