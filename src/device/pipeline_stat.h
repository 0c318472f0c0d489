// What a driver reports about a compiled kernel: plain data without Vulkan types, in device/ so
// that a benchmark report (bench/bench.h) reaches ui and app without gpu/ headers.
#pragma once

#include <optional>
#include <string>

namespace vkp {

// One figure a driver reports about a compiled kernel (VK_KHR_pipeline_executable_properties),
// such as NVIDIA's register count: what limits how many workgroups fit on a multiprocessor.
struct PipelineStat {
    std::string name;             // as the driver names it ("Register Count")
    std::string value;            // "40", "true", "1.5"
    std::optional<double> number; // the value, where it is a number
    std::string description;      // the driver's one-line explanation
};

} // namespace vkp
