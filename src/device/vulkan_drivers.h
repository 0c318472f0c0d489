// What to tell a user whose Vulkan loader loads no driver: none is installed, or one is installed
// but cannot be loaded (the NVIDIA driver without libglvnd's libraries, a library that is gone).
// Reads only the loader's driver manifests (JSON files), so no Vulkan header is needed here.
#pragma once

#include <string>
#include <vector>

namespace vkp {

struct DriverManifest {
    std::string path;    // /usr/share/vulkan/icd.d/nvidia_icd.json
    std::string library; // its "library_path", "" when it names none
};

// The manifests the loader reads: the files in $VK_DRIVER_FILES or $VK_ICD_FILENAMES when set,
// else the *.json in the icd.d folders of $XDG_CONFIG_HOME, $XDG_CONFIG_DIRS (/etc/xdg),
// /etc/vulkan, $XDG_DATA_HOME, $XDG_DATA_DIRS (/usr/local/share:/usr/share).
std::vector<DriverManifest> vulkanDriverManifests();

// The sentence for a failed vkCreateInstance with VK_ERROR_INCOMPATIBLE_DRIVER: "no Vulkan driver
// is installed (...)" when there is no manifest, else which driver files were found, that none
// could be loaded, and how to see why (VK_LOADER_DEBUG=error).
std::string noVulkanDriverMessage();

} // namespace vkp
