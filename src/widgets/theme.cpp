#include "widgets/theme.h"

#include <cstdint>

namespace vkp::ui {
namespace {

constexpr ImU32 rgb(uint32_t hex, uint8_t a = 255) {
    return IM_COL32((hex >> 16) & 0xff, (hex >> 8) & 0xff, hex & 0xff, a);
}

ImVec4 vec(uint32_t hex, float a = 1.0f) {
    return ImVec4(((hex >> 16) & 0xff) / 255.0f, ((hex >> 8) & 0xff) / 255.0f,
                  (hex & 0xff) / 255.0f, a);
}

const Palette kDark = {
    rgb(0xdcdde0),      rgb(0x9a9ca3),      rgb(0x5aa2ff),      rgb(0x4cc38a),
    rgb(0xf2555a),      rgb(0xe8b04b),      rgb(0x2b2d33),      rgb(0x1f2024),
    rgb(0x2c2f36),      rgb(0x3b3f48),      rgb(0x7a2a30),      rgb(0xffd7d9),
    rgb(0x2d5c8f),      rgb(0x5fe0a0),      rgb(0x25272c),      {rgb(0x35506e), rgb(0x2a3646)},
    rgb(0x2a2c31),      rgb(0xb7862c),      rgb(0xff5c63),      rgb(0x24262b),
    rgb(0x4a4f5a),      rgb(0x1b1c20),      rgb(0x202126),      rgb(0x5c6068),
    rgb(0xc8cad0),      rgb(0x26282e),      rgb(0x2f4f7a, 200), rgb(0xeeeeee),
    rgb(0x5a1f24, 170), rgb(0x5a4a1a, 150), rgb(0xc792ea),      rgb(0x5ec4d6),
    rgb(0xf0a35e),      rgb(0x82aaff),      rgb(0xf7c46c),      rgb(0x6f7682),
    rgb(0xd08ae8),      rgb(0xdcdde0),      rgb(0xa8adb8),      rgb(0x1f4a2e),
    rgb(0x4f2226),      rgb(0x6b5414),      rgb(0xffe08a),      rgb(0xff8ad8),
    rgb(0x7fb8ff, 200), rgb(0x5aa2ff),      rgb(0xe8b04b),      rgb(0x8fb4d9),
    rgb(0xf0b44c),      rgb(0xff6b6b),      rgb(0x2f7a66),      rgb(0xffa94d),
};

const Palette kLight = {
    rgb(0x1d1e22),      rgb(0x62656d),      rgb(0x1f6fd6),      rgb(0x16874f),
    rgb(0xcf2530),      rgb(0xa86a00),      rgb(0xe4e6eb),      rgb(0xfbfbfc),
    rgb(0xf0f1f4),      rgb(0xc9ccd3),      rgb(0xf7c2c5),      rgb(0x7d0f16),
    rgb(0xbcd8fb),      rgb(0x12a05c),      rgb(0xf6f6f8),      {rgb(0xdbe9f9), rgb(0xb9d2ef)},
    rgb(0xeceef1),      rgb(0xf2c15a),      rgb(0xd8202c),      rgb(0xf7f8fa),
    rgb(0xaab0bb),      rgb(0xffffff),      rgb(0xf3f4f6),      rgb(0xa0a4ad),
    rgb(0x30333a),      rgb(0xf1f5fb),      rgb(0xb6d3f7, 220), rgb(0x111111),
    rgb(0xfbd5d7, 220), rgb(0xfbecc4, 220), rgb(0x8a2bb9),      rgb(0x00798c),
    rgb(0xb35a00),      rgb(0x1f5fbf),      rgb(0x9a6a00),      rgb(0x8a8f99),
    rgb(0x9d3bb5),      rgb(0x1d1e22),      rgb(0x5a5f6b),      rgb(0xd3f2dd),
    rgb(0xfadadd),      rgb(0xfbe3a0),      rgb(0x8a5a00),      rgb(0xc0158f),
    rgb(0x1f5fbf, 190), rgb(0x1f6fd6),      rgb(0xa86a00),      rgb(0x3d6a99),
    rgb(0x9a5b00),      rgb(0xc4161c),      rgb(0xa6e6cf),      rgb(0xc2410c),
};

// Black on white, every mark saturated and dark enough to read on a washed-out projector.
const Palette kHighContrast = {
    .text = rgb(0x000000),
    .dimText = rgb(0x303030),
    .accent = rgb(0x0040ff),
    .pass = rgb(0x00801a),
    .fail = rgb(0xd80000),
    .warn = rgb(0xb05000),
    .panelHeader = rgb(0xdadada),
    .panelBg = rgb(0xffffff),
    .cellBg = rgb(0xffffff),
    .cellBorder = rgb(0x303030),
    .cellWrongBg = rgb(0xff8c8c),
    .cellWrongText = rgb(0x000000),
    .cellLinkedBg = rgb(0x7fb0ff),
    .cellWritten = rgb(0x00a020),
    .cellSpareBg = rgb(0xe4e4e4),
    .threadBg = {rgb(0xd2e2ff), rgb(0xa2c2ff)},
    .threadIdle = rgb(0xd8d8d8),
    .threadLinked = rgb(0xffc000),
    .threadFinding = rgb(0xff0090),
    .workgroupBg = rgb(0xffffff),
    .workgroupBorder = rgb(0x000000),
    .editorBg = rgb(0xffffff),
    .gutterBg = rgb(0xeeeeee),
    .lineNumber = rgb(0x404040),
    .lineNumberCurrent = rgb(0x000000),
    .currentLine = rgb(0xfff3b8),
    .selection = rgb(0x8fbcff, 230),
    .cursor = rgb(0x000000),
    .errorLine = rgb(0xffb8b8, 230),
    .warningLine = rgb(0xffe08a, 230),
    .synKeyword = rgb(0x8000c0),
    .synType = rgb(0x005a9e),
    .synBuiltin = rgb(0xa83c00),
    .synFunction = rgb(0x0030c0),
    .synNumber = rgb(0x7a4f00),
    .synComment = rgb(0x1e6b22),
    .synPreprocessor = rgb(0x9000a8),
    .synIdentifier = rgb(0x000000),
    .synPunctuation = rgb(0x202020),
    .diffAdded = rgb(0xb0f0c0),
    .diffRemoved = rgb(0xffc0c0),
    .cellChangedBg = rgb(0xffd640),
    .stepOutline = rgb(0xff7a00),
    .focus = rgb(0xe0007a),
    .arrow = rgb(0x0030d0, 220),
    .executedLine = rgb(0x0040ff),
    .watchMark = rgb(0xb05000),
    .costMinor = rgb(0x0058c0),
    .costNotable = rgb(0xc87000),
    .costSevere = rgb(0xd80000),
    .requestCell = rgb(0x70e0b8),
    .sectorLine = rgb(0xe04a00),
};

ThemeKind g_theme = ThemeKind::Dark;
bool g_presenter = false;

void darkColours(ImVec4* c) {
    ImGui::StyleColorsDark();
    c[ImGuiCol_Text] = vec(0xdcdde0);
    c[ImGuiCol_TextDisabled] = vec(0x8a8c93);
    c[ImGuiCol_WindowBg] = vec(0x1f2024);
    c[ImGuiCol_ChildBg] =
        vec(0x1f2024, 0.0f); // children sit on the window: no overdraw (software rasterisers)
    c[ImGuiCol_PopupBg] = vec(0x2a2c32, 0.98f);
    c[ImGuiCol_Border] = vec(0x363941);
    c[ImGuiCol_FrameBg] = vec(0x2c2f36);
    c[ImGuiCol_FrameBgHovered] = vec(0x363a43);
    c[ImGuiCol_FrameBgActive] = vec(0x3d4250);
    c[ImGuiCol_TitleBg] = vec(0x1b1c20);
    c[ImGuiCol_TitleBgActive] = vec(0x24262b);
    c[ImGuiCol_MenuBarBg] = vec(0x25272c);
    c[ImGuiCol_ScrollbarBg] = vec(0x1f2024, 0.0f);
    c[ImGuiCol_Button] = vec(0x353944);
    c[ImGuiCol_ButtonHovered] = vec(0x41485a);
    c[ImGuiCol_ButtonActive] = vec(0x4a5368);
    c[ImGuiCol_Header] = vec(0x2f4f7a, 0.70f);
    c[ImGuiCol_HeaderHovered] = vec(0x37598a, 0.85f);
    c[ImGuiCol_HeaderActive] = vec(0x3d659c);
    c[ImGuiCol_Separator] = vec(0x363941);
    c[ImGuiCol_SeparatorHovered] = vec(0x5aa2ff, 0.7f);
    c[ImGuiCol_SeparatorActive] = vec(0x5aa2ff);
    c[ImGuiCol_Tab] = vec(0x2b2d33);
    c[ImGuiCol_TabHovered] = vec(0x3d659c);
    c[ImGuiCol_TabActive] = vec(0x34507a);
    c[ImGuiCol_TabUnfocused] = vec(0x2b2d33);
    c[ImGuiCol_TabUnfocusedActive] = vec(0x2f4466);
    c[ImGuiCol_TableHeaderBg] = vec(0x2b2d33);
    c[ImGuiCol_TableRowBgAlt] = vec(0xffffff, 0.03f);
    c[ImGuiCol_CheckMark] = vec(0x5aa2ff);
}

void lightColours(ImVec4* c) {
    ImGui::StyleColorsLight();
    c[ImGuiCol_Text] = vec(0x1d1e22);
    c[ImGuiCol_TextDisabled] = vec(0x80848c);
    c[ImGuiCol_WindowBg] = vec(0xfbfbfc);
    c[ImGuiCol_ChildBg] = vec(0xfbfbfc, 0.0f);
    c[ImGuiCol_PopupBg] = vec(0xffffff, 0.99f);
    c[ImGuiCol_Border] = vec(0xd3d6dc);
    c[ImGuiCol_FrameBg] = vec(0xeceef2);
    c[ImGuiCol_FrameBgHovered] = vec(0xe2e6ed);
    c[ImGuiCol_FrameBgActive] = vec(0xd8dde6);
    c[ImGuiCol_MenuBarBg] = vec(0xeceef1);
    c[ImGuiCol_ScrollbarBg] = vec(0xfbfbfc, 0.0f);
    c[ImGuiCol_Button] = vec(0xe3e6ec);
    c[ImGuiCol_ButtonHovered] = vec(0xd4dcea);
    c[ImGuiCol_ButtonActive] = vec(0xc2d0e6);
    c[ImGuiCol_Header] = vec(0xbcd8fb, 0.8f);
    c[ImGuiCol_HeaderHovered] = vec(0xcfe2fb);
    c[ImGuiCol_HeaderActive] = vec(0xa9ccf7);
    c[ImGuiCol_Separator] = vec(0xd3d6dc);
    c[ImGuiCol_Tab] = vec(0xe4e6eb);
    c[ImGuiCol_TabHovered] = vec(0xcfe2fb);
    c[ImGuiCol_TabActive] = vec(0xffffff);
    c[ImGuiCol_TabUnfocused] = vec(0xe4e6eb);
    c[ImGuiCol_TabUnfocusedActive] = vec(0xf7f8fa);
    c[ImGuiCol_TableHeaderBg] = vec(0xe9ebef);
    c[ImGuiCol_TableRowBgAlt] = vec(0x000000, 0.025f);
}

void highContrastColours(ImVec4* c) {
    lightColours(c);
    c[ImGuiCol_Text] = vec(0x000000);
    c[ImGuiCol_TextDisabled] = vec(0x505050);
    c[ImGuiCol_WindowBg] = vec(0xffffff);
    c[ImGuiCol_ChildBg] = vec(0xffffff, 0.0f);
    c[ImGuiCol_PopupBg] = vec(0xffffff);
    c[ImGuiCol_Border] = vec(0x000000, 0.85f);
    c[ImGuiCol_FrameBg] = vec(0xf0f0f0);
    c[ImGuiCol_FrameBgHovered] = vec(0xdce8ff);
    c[ImGuiCol_FrameBgActive] = vec(0xc4d8ff);
    c[ImGuiCol_MenuBarBg] = vec(0xe6e6e6);
    c[ImGuiCol_ScrollbarBg] = vec(0xffffff, 0.0f);
    c[ImGuiCol_ScrollbarGrab] = vec(0x707070);
    c[ImGuiCol_Button] = vec(0xe0e0e0);
    c[ImGuiCol_ButtonHovered] = vec(0xc4d8ff);
    c[ImGuiCol_ButtonActive] = vec(0x8fbcff);
    c[ImGuiCol_Header] = vec(0x8fbcff);
    c[ImGuiCol_HeaderHovered] = vec(0xc4d8ff);
    c[ImGuiCol_HeaderActive] = vec(0x7fb0ff);
    c[ImGuiCol_Separator] = vec(0x000000, 0.6f);
    c[ImGuiCol_Tab] = vec(0xd0d0d0);
    c[ImGuiCol_TabHovered] = vec(0xc4d8ff);
    c[ImGuiCol_TabActive] = vec(0xffffff);
    c[ImGuiCol_TabUnfocused] = vec(0xd0d0d0);
    c[ImGuiCol_TabUnfocusedActive] = vec(0xffffff);
    c[ImGuiCol_TableHeaderBg] = vec(0xe0e0e0);
    c[ImGuiCol_CheckMark] = vec(0x0040ff);
}

} // namespace

void setPresenterMode(bool on) {
    g_presenter = on;
}

bool presenterMode() {
    return g_presenter;
}

float emphasis() {
    return g_presenter ? kPresenterEmphasis : 1.0f;
}

ImU32 withAlpha(ImU32 colour, float alpha) {
    ImU32 a = static_cast<ImU32>(((colour >> IM_COL32_A_SHIFT) & 0xff) * alpha);
    return (colour & ~IM_COL32_A_MASK) | (a << IM_COL32_A_SHIFT);
}

const Palette& applyTheme(ThemeKind theme, float scale) {
    g_theme = theme;
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();
    if (theme == ThemeKind::Dark)
        darkColours(style.Colors);
    else if (theme == ThemeKind::HighContrast)
        highContrastColours(style.Colors);
    else
        lightColours(style.Colors);
    style.WindowRounding = 0;
    style.ChildRounding = 0;
    style.FrameRounding = 4;
    style.PopupRounding = 4;
    style.GrabRounding = 4;
    style.TabRounding = 4;
    style.ScrollbarRounding = 6;
    style.ScrollbarSize = 12;
    style.WindowBorderSize = 0;
    style.ChildBorderSize = 1;
    style.FramePadding = ImVec2(7, 4);
    style.ItemSpacing = ImVec2(8, 6);
    style.CellPadding = ImVec2(6, 3);
    style.WindowPadding = ImVec2(8, 8);
    if (theme == ThemeKind::HighContrast) style.FrameBorderSize = 1; // buttons edged in black
    style.ScaleAllSizes(scale);
    return palette();
}

const Palette& palette() {
    return g_theme == ThemeKind::Dark    ? kDark
           : g_theme == ThemeKind::Light ? kLight
                                         : kHighContrast;
}

ThemeKind currentTheme() {
    return g_theme;
}

} // namespace vkp::ui
