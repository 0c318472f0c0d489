// Architecture rules, checked on the sources: the library layers never touch the GUI toolkits,
// the shader and gpu layers stay independent of each other (session joins them), the two front
// ends (app, cli) never include each other (main joins them), and ui and app see no gpu/ or
// Vulkan header, not even through the headers they include.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
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

const std::vector<std::string> kLibraryModules = {"core",   "report",  "shader",  "gpu",
                                                  "worker", "session", "analysis"};

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

TEST(Layering, LibraryModulesDoNotUseImguiOrGlfw) {
    for (const std::string& m : kLibraryModules)
        for (const Include& i : moduleIncludes(m)) {
            std::string t = lower(i.target);
            EXPECT_EQ(t.find("imgui"), std::string::npos) << describe(i);
            EXPECT_EQ(t.find("glfw"), std::string::npos) << describe(i);
        }
}

// analysis holds the models both front ends show: below ui and cli, and below the session too (it
// reads the report's data, report/check_report.h), free of the compiler and of Vulkan, so that a
// command, a panel and a test can all build them from a decoded trace.
TEST(Layering, AnalysisIsBelowTheFrontEndsAndSeesNoVulkan) {
    size_t files = 0;
    for (const Include& i : moduleIncludes("analysis", &files)) {
        for (const char* above :
             {"ui/", "app/", "cli/", "platform/", "main/", "gpu/", "session/", "shader/"})
            EXPECT_NE(i.target.rfind(above, 0), 0u) << describe(i);
        EXPECT_EQ(lower(i.target).find("vulkan"), std::string::npos) << describe(i);
    }
    EXPECT_GT(files, 0u);
}

TEST(Layering, ShaderDoesNotDependOnGpu) {
    for (const Include& i : moduleIncludes("shader")) {
        EXPECT_FALSE(i.target.starts_with("gpu/")) << describe(i);
        EXPECT_FALSE(i.target.starts_with("session/")) << describe(i);
    }
}

TEST(Layering, GpuDoesNotDependOnShader) {
    for (const Include& i : moduleIncludes("gpu")) {
        EXPECT_FALSE(i.target.starts_with("shader/")) << describe(i);
        EXPECT_FALSE(i.target.starts_with("session/")) << describe(i);
    }
}

TEST(Layering, CoreIncludesOnlyCore) {
    // vkp_core links nothing of ours (src/core/CMakeLists.txt): it is the bottom layer.
    for (const Include& i : moduleIncludes("core"))
        for (const char* upper : {"report/", "shader/", "gpu/", "session/", "cli/"})
            EXPECT_FALSE(i.target.starts_with(upper)) << describe(i);
}

TEST(Layering, TheReportIsDataOnTopOfCoreOnly) {
    // vkp_report links vkp_core alone (src/report/CMakeLists.txt): no compiler, device or session.
    size_t files = 0;
    for (const Include& i : moduleIncludes("report", &files))
        if (i.target.find('/') != std::string::npos && !i.target.starts_with("nlohmann/"))
            EXPECT_TRUE(i.target.starts_with("core/") || i.target.starts_with("report/"))
                << describe(i);
    EXPECT_GT(files, 0u);
}

TEST(Layering, AppAndCliDoNotIncludeEachOther) {
    // src/main parses argv and starts one of them; the parsed Args live in core (base/args.h).
    for (const Include& i : moduleIncludes("cli"))
        EXPECT_FALSE(i.target.starts_with("app/")) << describe(i);
    for (const Include& i : moduleIncludes("app"))
        EXPECT_FALSE(i.target.starts_with("cli/")) << describe(i);
    for (std::string m :
         {"core", "shader", "gpu", "worker", "session", "ui", "platform", "app", "cli"})
        for (const Include& i : moduleIncludes(m))
            EXPECT_FALSE(i.target.starts_with("main/")) << describe(i);
}

// A header ui and app may not reach: gpu's (Vulkan objects), Vulkan's own, or ImGui's Vulkan
// backend (which includes Vulkan's; only platform's renderer drives it).
bool isDeviceHeader(const std::string& target) {
    return target.starts_with("gpu/") || target.starts_with("vulkan/") ||
           target.find("imgui_impl_vulkan") != std::string::npos;
}

TEST(Layering, UiAndAppIncludeNoGpuOrVulkanHeader) {
    for (std::string m : {"ui", "app"})
        for (const Include& i : moduleIncludes(m))
            EXPECT_FALSE(isDeviceHeader(i.target)) << describe(i);
}

// The text of a project header by its include name ("session/check.h"), or nullopt for a header
// that is not ours (the standard library, Vulkan, ImGui).
using HeaderReader = std::function<std::optional<std::string>(const std::string& target)>;

std::optional<std::string> readProjectHeader(const std::string& target) {
    fs::path p = fs::path(VKPUZZLES_SOURCE_DIR) / "src" / target;
    if (!fs::is_regular_file(p)) return std::nullopt;
    std::ifstream in(p);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The device headers `start` reaches through project headers, each as the chain of includes that
// leads to it ("ui/workbench.h -> session/live_session.h -> gpu/context.h"). platform/ is not
// followed: its renderer is where the app meets Vulkan (ImGui's Vulkan backend needs it).
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
    for (std::string m : {"ui", "app"})
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
