#include "panels/device_panel.h"

#include "base/os.h"
#include "widgets/fonts.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {
namespace {

std::string dims(const std::array<uint32_t, 3>& d) {
    return std::to_string(d[0]) + " \xC3\x97 " + std::to_string(d[1]) + " \xC3\x97 " +
           std::to_string(d[2]);
}

std::string bytes(uint64_t b) {
    if (b >= (1ull << 30) && b % (1ull << 30) == 0) return std::to_string(b >> 30) + " GiB";
    if (b >= (1ull << 20) && b % (1ull << 20) == 0) return std::to_string(b >> 20) + " MiB";
    if (b >= 1024 && b % 1024 == 0) return std::to_string(b >> 10) + " KiB";
    return std::to_string(b) + " bytes";
}

std::string deviceLabel(const DeviceInfo& d) {
    return std::to_string(d.index) + ": " + d.name + " (" + deviceTypeName(d.type) + ")";
}

void row(const char* name, const std::string& value, const char* help = nullptr) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    dimText(name);
    if (help) itemTooltip(help);
    ImGui::TableSetColumnIndex(1);
    ImGui::PushFont(fonts().mono);
    ImGui::TextWrapped("%s", value.c_str());
    ImGui::PopFont();
}

void infoTable(const DeviceInfo& d) {
    if (!ImGui::BeginTable("device", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV))
        return;
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthFixed,
                            ImGui::CalcTextSize("Threads per workgroup").x +
                                ImGui::GetFontSize() * 0.5f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    row("Name", d.name);
    row("Type", deviceTypeName(d.type));
    row("Vulkan", d.apiVersion);
    if (!d.driver.empty()) row("Driver", d.driver);
    row("Subgroup size", std::to_string(d.subgroupSize),
        "Threads that run in lock-step (gl_SubgroupSize). 8 on lavapipe, 32 on NVIDIA, 32 or 64 on "
        "AMD.");
    row("Threads per workgroup", "up to " + std::to_string(d.maxWorkgroupInvocations),
        "maxComputeWorkGroupInvocations: the product of the workgroup size.");
    row("Workgroup size", "up to " + dims(d.maxWorkgroupSize),
        "maxComputeWorkGroupSize, per dimension.");
    row("Workgroups", "up to " + dims(d.maxWorkgroupCount),
        "maxComputeWorkGroupCount, per dimension.");
    row("Shared memory", bytes(d.maxSharedMemoryBytes),
        "maxComputeSharedMemorySize: all `shared` variables of a workgroup together.");
    row("Storage buffer", "up to " + bytes(d.maxStorageBufferRange),
        "maxStorageBufferRange: the largest buffer a kernel can bind.");
    char period[32];
    std::snprintf(period, sizeof period, "%g ns per tick", d.timestampPeriodNs);
    row("Timestamps", d.timestampPeriodNs > 0 ? period : "not supported");
    row("Robust buffer access", d.robustBufferAccess ? "yes: out-of-bounds reads return 0" : "no");
    ImGui::EndTable();
}

} // namespace

void DevicePanel::draw(Workbench& wb, views::ViewState&, ImVec2, const std::string& uiDevice) {
    const LiveSnapshot& s = wb.snapshot();
    const Palette& pal = palette();
    std::string current = s.device                               ? deviceLabel(*s.device)
                          : s.status == LiveStatusKind::Starting ? "starting\xE2\x80\xA6"
                                                                 : "no device";
    if (wb.caseFile()) { // where the file's run was made; there is nothing to pick
        ImGui::TextUnformatted(("The case file's run was made on " + current).c_str());
    } else {
        ImGui::TextUnformatted("Kernels run on");
        ImGui::SameLine();
    }
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
    if (!wb.caseFile() && ImGui::BeginCombo("##device", current.c_str())) {
        if (ImGui::Selectable("Automatic: the best device", wb.settings().device.empty()))
            wb.selectDevice("");
        for (const DeviceInfo& d : s.devices) {
            ImGui::BeginDisabled(!d.usable);
            bool chosen = s.device && s.device->index == d.index;
            if (ImGui::Selectable(deviceLabel(d).c_str(), chosen) && !chosen)
                wb.selectDevice(std::to_string(d.index));
            ImGui::EndDisabled();
            if (!d.usable) itemTooltip("Unusable: " + d.whyUnusable);
        }
        ImGui::EndCombo();
    }
    if (s.deviceError) {
        ImGui::PushTextWrapPos(0);
        colouredText(pal.fail, "No device: " + s.deviceError->message);
        dimText(
            "Your kernel text is kept. Pick another device above; on a machine without a GPU, " +
            os::cpuVulkanDriverAdvice() + ".");
        ImGui::PopTextWrapPos();
    }
    if (s.device) {
        ImGui::Spacing();
        infoTable(*s.device);
    }
    ImGui::Spacing();
    ImGui::PushTextWrapPos(0);
    dimText("The window is drawn by " +
            (uiDevice.empty() ? std::string("another device") : uiDevice) +
            " through its own Vulkan device; your kernels never share it, so a kernel that hangs "
            "cannot freeze the window.");
    ImGui::PopTextWrapPos();
}

} // namespace vkp::ui
