#include "store/own_cases.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "base/os.h"
#include "base/text_file.h"
#include "report/json_text.h"
#include "store/user_state.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace vkp {
namespace {

constexpr int kVersion = 1;

json pairsJson(const std::vector<std::pair<std::string, std::string>>& pairs) {
    json a = json::array();
    for (const auto& [k, v] : pairs)
        a.push_back({k, v});
    return a;
}

std::vector<std::pair<std::string, std::string>> pairsFrom(const json& a) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const json& p : a)
        out.emplace_back(p.at(0).get<std::string>(), p.at(1).get<std::string>());
    return out;
}

json specJson(const OwnCaseSpec& s) {
    return {{"case", s.templateCase + 1},
            {"inputs", pairsJson(s.inputs)},
            {"workgroups", s.workgroups},
            {"workgroup_size", s.workgroupSize},
            {"constants", pairsJson(s.constants)}};
}

OwnCaseSpec specFrom(const json& j) {
    OwnCaseSpec s;
    s.templateCase = j.at("case").get<size_t>() - 1;
    s.inputs = pairsFrom(j.at("inputs"));
    s.workgroups = j.value("workgroups", "");
    s.workgroupSize = j.value("workgroup_size", "");
    s.constants = pairsFrom(j.value("constants", json::array()));
    return s;
}

} // namespace

OwnCaseStore::OwnCaseStore(std::string dir) : m_dir(std::move(dir)) {
    if (m_dir.empty() || !fs::exists(os::toPath(path()))) return;
    auto text = readTextFile(path(), kStateFileLimit);
    try {
        if (!text) throw std::runtime_error(text.error().message);
        json j = json::parse(*text);
        if (j.value("version", kVersion) > kVersion)
            throw std::runtime_error("written by a newer vkpuzzles");
        for (const auto& [folder, list] : j.at("puzzles").items())
            for (const json& s : list)
                m_specs[folder].push_back(specFrom(s));
    } catch (const std::exception& e) {
        m_specs.clear();
        std::error_code ec;
        fs::rename(os::toPath(path()), os::toPath(path() + ".corrupt"), ec);
        m_loadProblem = "Your own cases (" + path() + ") could not be read (" + e.what() +
                        "); the file was moved to " + path() + ".corrupt.";
    }
}

std::string OwnCaseStore::path() const {
    return os::pathText(os::toPath(m_dir) / "own_cases.json");
}

const std::vector<OwnCaseSpec>& OwnCaseStore::specs(const std::string& puzzleFolder) const {
    static const std::vector<OwnCaseSpec> none;
    auto it = m_specs.find(puzzleFolder);
    return it == m_specs.end() ? none : it->second;
}

void OwnCaseStore::add(const std::string& puzzleFolder, OwnCaseSpec spec) {
    m_specs[puzzleFolder].push_back(std::move(spec));
}

void OwnCaseStore::remove(const std::string& puzzleFolder, size_t index) {
    auto it = m_specs.find(puzzleFolder);
    if (it == m_specs.end() || index >= it->second.size()) return;
    it->second.erase(it->second.begin() + static_cast<long>(index));
    if (it->second.empty()) m_specs.erase(it);
}

Status OwnCaseStore::save() const {
    if (m_dir.empty()) return okStatus();
    json puzzles = json::object();
    for (const auto& [folder, list] : m_specs) {
        json a = json::array();
        for (const OwnCaseSpec& s : list)
            a.push_back(specJson(s));
        puzzles[folder] = a;
    }
    return writeFileAtomically(path(),
                               jsonText(json{{"version", kVersion}, {"puzzles", puzzles}}) + "\n");
}

void applyOwnCases(Puzzle& puzzle, const std::vector<OwnCaseSpec>& specs,
                   std::vector<std::string>& problems) {
    std::erase_if(puzzle.cases, [](const TestCase& c) { return c.own; });
    size_t n = 0;
    for (const OwnCaseSpec& s : specs) {
        auto c = buildOwnCase(puzzle, s, formFieldName);
        if (!c) {
            problems.push_back("One of your own cases of " + puzzle.displayName() +
                               " no longer fits the puzzle and is not shown: " + c.error().message);
            continue;
        }
        c->name = "Your case " + std::to_string(++n) + " (from case " +
                  std::to_string(s.templateCase + 1) + ")";
        puzzle.cases.push_back(std::move(*c));
    }
}

std::string formFieldName(OwnCaseField field, const std::string& name) {
    switch (field) {
    case OwnCaseField::Input:
        return "the values of " + name;
    case OwnCaseField::Workgroups:
        return "Workgroups";
    case OwnCaseField::WorkgroupSize:
        return "Workgroup size";
    case OwnCaseField::Constant:
        return name;
    case OwnCaseField::TemplateCase:
        return "Case";
    }
    return name;
}

size_t puzzleCasesPassed(const CheckReport& report, const Puzzle& puzzle) {
    size_t n = 0;
    for (const CaseOutcome& c : report.cases)
        n += c.pass && c.index < puzzle.cases.size() && !puzzle.cases[c.index].own;
    return n;
}

bool puzzleCasesPass(const CheckReport& report, const Puzzle& puzzle) {
    if (report.reached != StageKind::Done || report.error || hasErrors(report.diagnostics))
        return false;
    for (const SubgroupSizeRun& s : report.otherSizes) // wrong with other numbers of lanes
        for (const CaseFailure& f : s.failures)
            if (f.index < puzzle.cases.size() && !puzzle.cases[f.index].own) return false;
    if (report.search && report.search->found) return false; // a generated case fails
    if (report.reversed) // wrong with atomics in reverse lane order
        for (const CaseFailure& f : report.reversed->failures)
            if (f.index < puzzle.cases.size() && !puzzle.cases[f.index].own) return false;
    return puzzleCasesPassed(report, puzzle) == puzzle.puzzleCaseCount() &&
           puzzle.puzzleCaseCount() > 0;
}

} // namespace vkp
