// Architecture rules, checked on the sources and on the CMake files: every library under src/ has
// a layer (kLayers), includes and links only its own layer's code and the layers below it (the
// link graph is read from target_link_libraries and has no cycle), siblings of one layer never
// know each other (shader and gpu meet in check, app and cli in main), the library layers
// never touch the GUI toolkits, the windowless models link no compiler and no Vulkan, and ui and
// app see no gpu/ or Vulkan header, not even through the headers they include.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace vkp {
namespace {

struct Include {
    std::string file; // relative to the repository root
    int line = 0;
    std::string target; // what is between the quotes or angle brackets
};

std::vector<Include> includesIn(const std::string& text, const std::string& file) {
    static const std::regex directive(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
    std::vector<Include> out;
    std::istringstream in(text);
    std::string line;
    std::smatch m;
    for (int n = 1; std::getline(in, line); ++n)
        if (std::regex_search(line, m, directive)) out.push_back({file, n, m[1]});
    return out;
}

bool isSource(const fs::path& p) {
    static const std::vector<std::string> exts = {".h", ".hpp", ".cpp", ".cc", ".inl"};
    return std::find(exts.begin(), exts.end(), p.extension().string()) != exts.end();
}

// Every #include of every source file under src/<module>.
std::vector<Include> moduleIncludes(const std::string& module, size_t* files = nullptr) {
    const fs::path root(VKPUZZLES_SOURCE_DIR);
    std::vector<Include> out;
    size_t count = 0;
    for (const auto& e : fs::recursive_directory_iterator(root / "src" / module)) {
        if (!e.is_regular_file() || !isSource(e.path())) continue;
        ++count;
        std::ifstream in(e.path());
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        auto found = includesIn(text, fs::relative(e.path(), root).string());
        out.insert(out.end(), found.begin(), found.end());
    }
    if (files) *files = count;
    return out;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::string describe(const Include& i) {
    return i.file + ":" + std::to_string(i.line) + ": #include " + i.target;
}

// The libraries under src/, from the bottom up: each may include and link only itself and the
// layers below it. Libraries of one layer are siblings: they never include or link each other
// (shader and gpu meet in session; cli and app in main). docs/architecture.md draws this.
const std::vector<std::vector<std::string>> kLayers = {
    {"base"},                   // Result, text files, source text, diagnostics, Args, IPC frames
    {"device"},                 // a Vulkan device as plain data
    {"reference"},              // buffer data and the CPU reference ops (expected outputs)
    {"puzzle"},                 // the puzzle format: model, loaders, expressions
    {"trace"},                  // the trace of a run and its facts
    {"judge", "authoring"},     // a trace judged (findings) | writing puzzles (lint, mutants)
    {"report"},                 // what a check found, as data
    {"shader", "gpu"},          // shaderc + SPIR-V | Vulkan compute
    {"rewrite", "worker"},      // SPIR-V rewritten: trace, guards, emulation | the worker process
    {"check", "views", "text"}, // edit -> verdict | trace models, panels' state | editor's text
    {"bench"},                  // kernels timed at large N, peers beside them
    {"session", "store"},       // the app's live loop | the learner's drafts, settings, cases
    {"classroom"},              // a teacher's tools: grading a class, checking a puzzle pack
    {"gradebook"},              // a graded class as files: CSV, JSON, Gradescope, HTML report
    {"widgets", "workbench"},   // theme, fonts, widgets (ImGui) | what the panels read (no ImGui)
    {"editor"},                 // the code editor and its find bar
    {"panels"},                 // one file per panel: drawing and input
    {"platform", "ui"},         // window, swapchain | the main view that places the panels
    {"cli", "app"},             // the two front ends
    {"main"},                   // argv -> a front end or the worker
};

// The layer of a library, or -1 for a name that is none of ours (std, Vulkan, ImGui, toml++).
int layerOf(const std::string& module) {
    for (size_t l = 0; l < kLayers.size(); ++l)
        if (std::find(kLayers[l].begin(), kLayers[l].end(), module) != kLayers[l].end())
            return static_cast<int>(l);
    return -1;
}

std::vector<std::string> modulesBelow(const std::string& top) {
    std::vector<std::string> out;
    for (int l = 0; l < layerOf(top); ++l)
        out.insert(out.end(), kLayers[l].begin(), kLayers[l].end());
    return out;
}

// The library an include names ("puzzle" for "puzzle/puzzle.h"), or "" when it is not ours.
std::string moduleOf(const std::string& target) {
    auto slash = target.find('/');
    if (slash == std::string::npos) return "";
    std::string m = target.substr(0, slash);
    return layerOf(m) >= 0 ? m : "";
}

// Whether `from` may use `to`: itself or a library of a lower layer.
bool goesDown(const std::string& from, const std::string& to) {
    return from == to || layerOf(to) < layerOf(from);
}

// The library layers that never touch the GUI toolkits: all below the app's own (widgets).
const std::vector<std::string> kLibraryModules = modulesBelow("widgets");

TEST(Layering, IncludeScannerReadsBothForms) {
    auto found = includesIn(
        "#include \"puzzle/puzzle.h\"\n  #  include <GLFW/glfw3.h>\n// #include x\nint a;\n",
        "f.cpp");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].target, "puzzle/puzzle.h");
    EXPECT_EQ(found[0].line, 1);
    EXPECT_EQ(found[1].target, "GLFW/glfw3.h");
    EXPECT_EQ(found[1].line, 2);
}

TEST(Layering, EveryFolderUnderSrcIsALayeredLibrary) {
    const fs::path root(VKPUZZLES_SOURCE_DIR);
    for (const auto& e : fs::directory_iterator(root / "src")) {
        if (!e.is_directory()) continue;
        EXPECT_GE(layerOf(e.path().filename().string()), 0)
            << "src/" << e.path().filename().string() << " is in no layer of kLayers";
    }
    for (const auto& layer : kLayers)
        for (const std::string& m : layer) {
            size_t files = 0;
            moduleIncludes(m, &files);
            EXPECT_GT(files, 0u) << "src/" << m;
        }
}

TEST(Layering, EveryLibraryModuleHasSources) {
    for (const std::string& m : kLibraryModules) {
        size_t files = 0;
        auto includes = moduleIncludes(m, &files);
        EXPECT_GT(files, 0u) << "src/" << m;
        EXPECT_FALSE(includes.empty()) << "src/" << m;
    }
    // The scan sees real dependencies: session is where shader and gpu meet.
    auto session = moduleIncludes("session");
    auto has = [&](const std::string& prefix) {
        return std::any_of(session.begin(), session.end(),
                           [&](const Include& i) { return i.target.starts_with(prefix); });
    };
    EXPECT_TRUE(has("shader/"));
    EXPECT_TRUE(has("gpu/"));
}

TEST(Layering, IncludesGoDownTheLayers) {
    EXPECT_TRUE(goesDown("judge", "trace"));
    EXPECT_FALSE(goesDown("trace", "judge"));
    EXPECT_FALSE(goesDown("shader", "gpu")); // siblings
    for (const auto& layer : kLayers)
        for (const std::string& m : layer)
            for (const Include& i : moduleIncludes(m)) {
                std::string to = moduleOf(i.target);
                if (to.empty()) continue;
                EXPECT_TRUE(goesDown(m, to))
                    << describe(i) << ": src/" << m << " (layer " << layerOf(m) << ") includes src/"
                    << to << " (layer " << layerOf(to) << ")";
            }
}

TEST(Layering, LibraryModulesDoNotUseImguiOrGlfw) {
    for (const std::string& m : kLibraryModules)
        for (const Include& i : moduleIncludes(m)) {
            std::string t = lower(i.target);
            EXPECT_EQ(t.find("imgui"), std::string::npos) << describe(i);
            EXPECT_EQ(t.find("glfw"), std::string::npos) << describe(i);
        }
}

// views holds the models both front ends show: below ui and cli, beside the session (it reads
// the report's data, report/check_report.h), free of the compiler and of Vulkan, so that a
// command, a panel and a test can all build them from a decoded trace.
TEST(Layering, ViewsSeeNoVulkan) {
    size_t files = 0;
    for (const Include& i : moduleIncludes("views", &files))
        EXPECT_EQ(lower(i.target).find("vulkan"), std::string::npos) << describe(i);
    EXPECT_GT(files, 0u);
}

TEST(Layering, AppAndCliDoNotIncludeEachOther) {
    // src/main parses argv (cli/arguments.h) and starts one of them; the parsed Args live in base.
    for (const Include& i : moduleIncludes("cli"))
        EXPECT_FALSE(i.target.starts_with("app/")) << describe(i);
    for (const Include& i : moduleIncludes("app"))
        EXPECT_FALSE(i.target.starts_with("cli/")) << describe(i);
}

// --- The link graph: what each CMake target links (target_link_libraries) -------------------

// Library -> what it links: our libraries by their folder's name ("puzzle" for vkp_puzzle, "main"
// for the vkpuzzles executable), other targets as CMake names them (Vulkan::Vulkan, vkp_shaderc).
using LinkGraph = std::map<std::string, std::set<std::string>>;

std::string linkNode(const std::string& target) {
    if (target == "vkpuzzles") return "main";
    if (target.starts_with("vkp_") && layerOf(target.substr(4)) >= 0) return target.substr(4);
    return target;
}

// Adds the target_link_libraries(TARGET [PUBLIC|PRIVATE|INTERFACE] ITEM...) of a CMake file.
void readLinks(const std::string& cmake, LinkGraph& graph) {
    static const std::regex call(R"(target_link_libraries\s*\(([^)]*)\))");
    static const std::set<std::string> keywords = {"PUBLIC", "PRIVATE", "INTERFACE"};
    std::string text = std::regex_replace(cmake, std::regex("#[^\n]*"), "");
    for (std::sregex_iterator it(text.begin(), text.end(), call), end; it != end; ++it) {
        std::istringstream words((*it)[1].str());
        std::string target, item;
        words >> target;
        std::set<std::string>& links = graph[linkNode(target)];
        while (words >> item)
            if (!keywords.count(item)) links.insert(linkNode(item));
    }
}

std::string readText(const fs::path& p) {
    std::ifstream in(p);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The link graph of the libraries under src/ and of the top-level CMakeLists.txt (vkp_shaderc).
LinkGraph projectLinks() {
    const fs::path root(VKPUZZLES_SOURCE_DIR);
    LinkGraph graph;
    readLinks(readText(root / "CMakeLists.txt"), graph);
    for (const auto& e : fs::directory_iterator(root / "src"))
        if (fs::is_regular_file(e.path() / "CMakeLists.txt"))
            readLinks(readText(e.path() / "CMakeLists.txt"), graph);
    return graph;
}

// A cycle of links as "a -> b -> c -> a", or "" when there is none.
std::string findCycle(const LinkGraph& graph) {
    std::map<std::string, int> state; // 1 on the path being walked, 2 done
    std::vector<std::string> path;
    std::function<std::string(const std::string&)> walk = [&](const std::string& n) {
        state[n] = 1;
        path.push_back(n);
        auto it = graph.find(n);
        if (it != graph.end())
            for (const std::string& next : it->second) {
                if (state[next] == 1) {
                    std::string cycle;
                    for (auto p = std::find(path.begin(), path.end(), next); p != path.end(); ++p)
                        cycle += *p + " -> ";
                    return cycle + next;
                }
                if (state[next] == 0)
                    if (std::string cycle = walk(next); !cycle.empty()) return cycle;
            }
        path.pop_back();
        state[n] = 2;
        return std::string();
    };
    for (const auto& [node, links] : graph)
        if (state[node] == 0)
            if (std::string cycle = walk(node); !cycle.empty()) return cycle;
    return "";
}

// Everything `start` links, directly or through what it links.
std::set<std::string> linkedFrom(const LinkGraph& graph, const std::string& start) {
    std::set<std::string> seen;
    std::vector<std::string> todo = {start};
    while (!todo.empty()) {
        std::string n = todo.back();
        todo.pop_back();
        auto it = graph.find(n);
        if (it == graph.end()) continue;
        for (const std::string& next : it->second)
            if (seen.insert(next).second) todo.push_back(next);
    }
    return seen;
}

TEST(Layering, LinkReaderReadsTargetLinkLibraries) {
    LinkGraph g;
    readLinks("add_library(vkp_judge STATIC a.cpp)\n# target_link_libraries(vkp_judge vkp_ui)\n"
              "target_link_libraries(vkp_judge PUBLIC vkp_trace\n  PRIVATE PkgConfig::TOMLPP)\n"
              "target_link_libraries(vkpuzzles PRIVATE vkp_app)\n",
              g);
    EXPECT_EQ(g["judge"], (std::set<std::string>{"trace", "PkgConfig::TOMLPP"}));
    EXPECT_EQ(g["main"], (std::set<std::string>{"app"}));
}

TEST(Layering, CycleFinderReportsACycleInASyntheticGraph) {
    LinkGraph acyclic = {{"judge", {"trace", "puzzle"}}, {"trace", {"puzzle"}}, {"puzzle", {}}};
    EXPECT_EQ(findCycle(acyclic), "");
    LinkGraph cyclic = {{"judge", {"trace"}},
                        {"trace", {"puzzle"}},
                        {"puzzle", {"base", "judge"}},
                        {"session", {"judge"}}};
    EXPECT_EQ(findCycle(cyclic), "judge -> trace -> puzzle -> judge");
    EXPECT_EQ(findCycle({{"base", {"base"}}}), "base -> base");
}

TEST(Layering, LinksGoDownTheLayersWithoutACycle) {
    LinkGraph graph = projectLinks();
    EXPECT_EQ(findCycle(graph), "");
    for (const auto& layer : kLayers)
        for (const std::string& m : layer) {
            ASSERT_TRUE(graph.count(m)) << "no target_link_libraries for src/" << m;
            for (const std::string& to : graph[m]) {
                if (layerOf(to) < 0) continue;
                EXPECT_TRUE(goesDown(m, to)) << "src/" << m << " links vkp_" << to;
            }
        }
}

// A library that includes another's headers links it, directly or through what it links, so the
// include order above is the order the linker sees too.
TEST(Layering, EveryLibraryLinksWhatItIncludes) {
    LinkGraph graph = projectLinks();
    for (const auto& layer : kLayers)
        for (const std::string& m : layer) {
            std::set<std::string> linked = linkedFrom(graph, m);
            std::set<std::string> reported;
            for (const Include& i : moduleIncludes(m)) {
                std::string to = moduleOf(i.target);
                if (!to.empty() && to != m && !linked.count(to) && reported.insert(to).second)
                    ADD_FAILURE() << describe(i) << ": src/" << m << " does not link vkp_" << to;
            }
        }
}

// The windowless models (views, and the editor's text model) and their tests link no compiler
// (shaderc) and no Vulkan.
TEST(Layering, ViewsAndTheirTestsLinkNoCompilerAndNoVulkan) {
    LinkGraph graph = projectLinks();
    readLinks(readText(fs::path(VKPUZZLES_SOURCE_DIR) / "tests" / "CMakeLists.txt"), graph);
    std::string text = readText(fs::path(VKPUZZLES_SOURCE_DIR) / "tests" / "CMakeLists.txt");
    for (const std::string module : {"views", "text"}) {
        // The test binary: vkp_module_tests(MODULE LABELS ... libraries...).
        const std::regex tests("vkp_module_tests\\(" + module + "\\s([^)]*)\\)");
        std::smatch m;
        ASSERT_TRUE(std::regex_search(text, m, tests)) << module;
        std::istringstream words(m[1].str());
        for (std::string w; words >> w;)
            graph[module + " tests"].insert(linkNode(w));
        for (const std::string& node : {module, module + " tests"}) {
            std::set<std::string> linked = linkedFrom(graph, node);
            for (const char* banned : {"shader", "rewrite", "gpu", "worker", "check", "bench",
                                       "session", "store", "vkp_shaderc", "Vulkan::Vulkan"})
                EXPECT_FALSE(linked.count(banned)) << node << " links " << banned;
        }
    }
}

// The drawing kit knows no session, though it lies above it: what both need of a setting (the
// theme's kind) is base's (base/theme_kind.h), so widgets build and test without a device.
TEST(Layering, WidgetsIncludeAndLinkNoSession) {
    for (const Include& i : moduleIncludes("widgets"))
        for (const char* library : {"check/", "bench/", "session/", "store/"})
            EXPECT_FALSE(i.target.starts_with(library)) << describe(i);
    std::set<std::string> linked = linkedFrom(projectLinks(), "widgets");
    for (const char* library : {"check", "bench", "session", "store"})
        EXPECT_FALSE(linked.count(library)) << "widgets links " << library;
}

// A library past 6,000 lines (.cpp + .h) holds more than one concept: split it into libraries of
// their own (issue 36 split core and ui that way).
TEST(Layering, NoLibraryHoldsMoreThan6000Lines) {
    const fs::path root(VKPUZZLES_SOURCE_DIR);
    for (const auto& layer : kLayers)
        for (const std::string& m : layer) {
            size_t lines = 0;
            for (const auto& e : fs::recursive_directory_iterator(root / "src" / m)) {
                auto ext = e.path().extension();
                if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
                std::string text = readText(e.path());
                lines += std::count(text.begin(), text.end(), '\n');
            }
            EXPECT_LE(lines, 6000u) << "src/" << m;
            EXPECT_GT(lines, 0u) << "src/" << m;
        }
}

// The app's libraries, which see devices as plain data (device/) only.
const std::vector<std::string> kAppModules = {"widgets", "workbench", "editor",
                                              "panels",  "ui",        "app"};

// A header ui and app may not reach: gpu's (Vulkan objects), Vulkan's own, or ImGui's Vulkan
// backend (which includes Vulkan's; only platform's renderer drives it).
bool isDeviceHeader(const std::string& target) {
    return target.starts_with("gpu/") || target.starts_with("vulkan/") ||
           target.find("imgui_impl_vulkan") != std::string::npos;
}

TEST(Layering, UiAndAppIncludeNoGpuOrVulkanHeader) {
    for (const std::string& m : kAppModules)
        for (const Include& i : moduleIncludes(m))
            EXPECT_FALSE(isDeviceHeader(i.target)) << describe(i);
}

// The text of a project header by its include name ("check/check.h"), or nullopt for a header
// that is not ours (the standard library, Vulkan, ImGui).
using HeaderReader = std::function<std::optional<std::string>(const std::string& target)>;

std::optional<std::string> readProjectHeader(const std::string& target) {
    fs::path p = fs::path(VKPUZZLES_SOURCE_DIR) / "src" / target;
    if (!fs::is_regular_file(p)) return std::nullopt;
    std::ifstream in(p);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The device headers `start` reaches through project headers, each as the chain of includes that
// leads to it ("workbench/workbench.h -> session/live_session.h -> gpu/context.h"). platform/ is
// not followed: its renderer is where the app meets Vulkan (ImGui's Vulkan backend needs it).
std::vector<std::string> deviceHeadersReached(const Include& start, const HeaderReader& read) {
    std::vector<std::string> found;
    std::map<std::string, std::string> chainTo; // include name -> how it was reached
    std::vector<std::string> todo;
    auto visit = [&](const std::string& target, const std::string& chain) {
        if (chainTo.count(target)) return;
        chainTo[target] = chain + " -> " + target;
        if (isDeviceHeader(target)) {
            found.push_back(chainTo[target]);
            return;
        }
        if (!target.starts_with("platform/")) todo.push_back(target);
    };
    visit(start.target, start.file);
    while (!todo.empty()) {
        std::string target = todo.back();
        todo.pop_back();
        auto text = read(target);
        if (!text) continue;
        for (const Include& i : includesIn(*text, target))
            visit(i.target, chainTo[target]);
    }
    return found;
}

TEST(Layering, DeviceHeaderScanFollowsIncludesButNotPlatform) {
    std::map<std::string, std::string> files = {
        {"ui/panel.h", "#include \"session/live.h\"\n#include <imgui.h>\n"},
        {"session/live.h", "#include \"base/result.h\"\n#include \"gpu/context.h\"\n"},
        {"base/result.h", "#include <string>\n"},
        {"platform/renderer.h", "#include <vulkan/vulkan.h>\n"},
    };
    HeaderReader read = [&](const std::string& t) -> std::optional<std::string> {
        auto it = files.find(t);
        return it == files.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
    auto viaSession = deviceHeadersReached({"ui/panel.cpp", 1, "ui/panel.h"}, read);
    ASSERT_EQ(viaSession.size(), 1u);
    EXPECT_EQ(viaSession[0], "ui/panel.cpp -> ui/panel.h -> session/live.h -> gpu/context.h");
    EXPECT_EQ(deviceHeadersReached({"app/app.cpp", 1, "vulkan/vulkan.h"}, read).size(), 1u);
    EXPECT_TRUE(deviceHeadersReached({"app/app.cpp", 1, "platform/renderer.h"}, read).empty());
}

TEST(Layering, UiAndAppReachNoGpuOrVulkanHeaderThroughTheirIncludes) {
    for (const std::string& m : kAppModules)
        for (const Include& i : moduleIncludes(m))
            for (const std::string& chain : deviceHeadersReached(i, readProjectHeader))
                ADD_FAILURE() << chain;
}

} // namespace
} // namespace vkp

namespace vkp {
namespace {

// UTF-8 that was decoded as Latin-1 and encoded again ("â¶" for "▶": C3 A2 C2 96 C2 B6) shows
// as garbage in the app (issue 18: the walkthrough button). Non-ASCII text is written as \x
// escapes or plain UTF-8, never twice encoded.
TEST(SourceText, NoDoubleEncodedUtf8InTheSources) {
    const fs::path root(VKPUZZLES_SOURCE_DIR);
    int files = 0;
    for (const auto& e : fs::recursive_directory_iterator(root / "src")) {
        if (!e.is_regular_file() || !isSource(e.path())) continue;
        std::ifstream in(e.path(), std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        ++files;
        // A lead byte of a 2..4-byte sequence (C3 for U+00C0..U+00FF, C2 for U+0080..U+00BF)
        // followed by C2: a UTF-8 byte read as a Latin-1 letter and encoded again.
        for (size_t i = 0; i + 3 < text.size(); ++i) {
            unsigned char a = text[i], b = text[i + 1], c = text[i + 2];
            bool doubled = a == 0xC3 && (b >= 0xA2 && b <= 0xAF) && c == 0xC2;
            EXPECT_FALSE(doubled) << e.path() << " byte " << i << ": twice-encoded UTF-8";
            if (doubled) break;
        }
    }
    EXPECT_GT(files, 50);
}

} // namespace
} // namespace vkp
