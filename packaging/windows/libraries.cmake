# The libraries of the Windows build, from the prefix that packaging/windows/deps.sh cross-built
# from Debian's sources (VKP_WINDOWS_PREFIX), under the names the Linux build finds Debian's own
# under (Vulkan::Vulkan, PkgConfig::IMGUI, vkp_shaderc, ...): the rest of the build is the same.
if(NOT VKP_WINDOWS_PREFIX OR NOT EXISTS ${VKP_WINDOWS_PREFIX}/include/volk.h)
  message(FATAL_ERROR "The Windows build needs the libraries cross-built by "
                      "packaging/windows/deps.sh: run ./build.sh windows.")
endif()
set(vkp_prefix ${VKP_WINDOWS_PREFIX})

find_package(Threads REQUIRED)
find_package(glslang CONFIG REQUIRED)
# glslang's targets name SPIRV-Tools' libraries bare (-lSPIRV-Tools-opt, as Debian's pkg-config
# file gave them): they are found in the prefix.
link_directories(${vkp_prefix}/lib)
find_package(glfw3 CONFIG REQUIRED)
# SPIRV-Tools: its two libraries only (deps.sh builds no more of it, and so installs no config).
add_library(SPIRV-Tools-static STATIC IMPORTED)
set_target_properties(SPIRV-Tools-static PROPERTIES
  IMPORTED_LOCATION ${vkp_prefix}/lib/libSPIRV-Tools.a
  INTERFACE_INCLUDE_DIRECTORIES ${vkp_prefix}/include)
add_library(SPIRV-Tools-opt STATIC IMPORTED)
set_target_properties(SPIRV-Tools-opt PROPERTIES
  IMPORTED_LOCATION ${vkp_prefix}/lib/libSPIRV-Tools-opt.a
  INTERFACE_LINK_LIBRARIES SPIRV-Tools-static)

# Vulkan through volk (a C file): vulkan-1.dll is found when the program runs (gpu/vulkan_api.h).
enable_language(C)
add_library(vkp_volk STATIC ${vkp_prefix}/include/volk.c)
target_include_directories(vkp_volk SYSTEM PUBLIC ${vkp_prefix}/include)
target_compile_definitions(vkp_volk PUBLIC VK_NO_PROTOTYPES VKP_VOLK)
add_library(Vulkan::Vulkan INTERFACE IMPORTED)
set_target_properties(Vulkan::Vulkan PROPERTIES INTERFACE_LINK_LIBRARIES vkp_volk)

# Header-only libraries, copied from Debian's -dev packages into the prefix.
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${vkp_prefix}/include)
add_library(PkgConfig::TOMLPP INTERFACE IMPORTED)
set_target_properties(PkgConfig::TOMLPP PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${vkp_prefix}/include)

# Dear ImGui with its GLFW and Vulkan backends, stb_image_write, GLFW (static libraries).
add_library(PkgConfig::GLFW INTERFACE IMPORTED)
set_target_properties(PkgConfig::GLFW PROPERTIES INTERFACE_LINK_LIBRARIES glfw)
add_library(PkgConfig::IMGUI INTERFACE IMPORTED)
set_target_properties(PkgConfig::IMGUI PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${vkp_prefix}/include/imgui
  INTERFACE_LINK_LIBRARIES "${vkp_prefix}/lib/libimgui.a;glfw;imm32")
add_library(PkgConfig::STB INTERFACE IMPORTED)
set_target_properties(PkgConfig::STB PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${vkp_prefix}/include/stb
  INTERFACE_LINK_LIBRARIES ${vkp_prefix}/lib/libstb.a)

# shaderc's two static libraries with glslang's and SPIRV-Tools', in one rescanned group as on
# Linux (glslang 12 still has OGLCompiler and HLSL as libraries of their own).
set(VKP_GLSLANG_LIBS)
foreach(lib glslang SPIRV MachineIndependent GenericCodeGen OSDependent OGLCompiler HLSL
            glslang-default-resource-limits)
  if(TARGET glslang::${lib})
    list(APPEND VKP_GLSLANG_LIBS glslang::${lib})
  endif()
endforeach()
list(JOIN VKP_GLSLANG_LIBS "," VKP_GLSLANG_GROUP)
add_library(vkp_shaderc INTERFACE)
target_include_directories(vkp_shaderc SYSTEM INTERFACE ${vkp_prefix}/include)
target_link_libraries(vkp_shaderc INTERFACE
  "$<LINK_GROUP:RESCAN,${vkp_prefix}/lib/libshaderc_static.a,${vkp_prefix}/lib/libshaderc_util.a,${VKP_GLSLANG_GROUP},SPIRV-Tools-opt,SPIRV-Tools-static>"
  Threads::Threads)

# One self-contained program: the C and C++ runtimes and winpthreads linked in (no DLL of
# mingw's beside it), the console subsystem (the command line works from cmd.exe and
# PowerShell; the app lets go of a console of its own, os::closeOwnConsole), and the 8 MiB stack
# Linux gives a main thread (glslang recurses deeply on long expressions).
add_link_options(-static -static-libgcc -static-libstdc++ -Wl,--stack,8388608)
# Windows 10's API (job objects' and pipes' functions, virtual terminal sequences).
add_compile_definitions(_WIN32_WINNT=0x0A00 WINVER=0x0A00 UNICODE _UNICODE NOMINMAX
                        WIN32_LEAN_AND_MEAN)
