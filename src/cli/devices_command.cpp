// `vkpuzzles devices`: the Vulkan devices and their limits, the one a command would run on marked.
#include "cli/command_context.h"
#include "cli/json_report.h"
#include "cli/text_report.h"
#include "device/device_options.h"

namespace vkp::cli {

int devicesCommand(CommandContext& ctx) {
    auto list = GpuContext::listDevices();
    if (!list) return ctx.report(list.error());
    auto chosen =
        GpuContext::create({ctx.args.value("device").value_or(deviceSelectorFromEnvironment())});
    int selected = chosen ? static_cast<int>((*chosen)->info().index) : -1;
    if (ctx.json()) {
        nlohmann::json j = nlohmann::json::array();
        for (const DeviceInfo& d : *list)
            j.push_back(deviceJson(d));
        ctx.out << jsonText(nlohmann::json{
                       {"version", kJsonVersion}, {"devices", j}, {"selected", selected}})
                << "\n";
    } else {
        for (const DeviceInfo& d : *list)
            printDevice(ctx.out, d, static_cast<int>(d.index) == selected, ctx.style);
    }
    if (!chosen) return ctx.report(chosen.error());
    return kExitPass;
}

} // namespace vkp::cli
