# CMake toolchain for the Windows build: Debian's mingw-w64 cross compilers (the -posix variants,
# whose libstdc++ has std::thread and std::mutex), and the libraries cross-built from Debian's
# source packages in VKP_WINDOWS_PREFIX (packaging/windows/deps.sh). Nothing from /usr/include or
# /usr/lib is ever searched: those are the build machine's, for Linux.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(VKP_MINGW x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${VKP_MINGW}-gcc-posix)
set(CMAKE_CXX_COMPILER ${VKP_MINGW}-g++-posix)
set(CMAKE_RC_COMPILER ${VKP_MINGW}-windres)
set(CMAKE_AR ${VKP_MINGW}-gcc-ar-posix CACHE FILEPATH "")
set(CMAKE_RANLIB ${VKP_MINGW}-gcc-ranlib-posix CACHE FILEPATH "")

# The prefix is passed on the command line (-DVKP_WINDOWS_PREFIX=...) and must reach try_compile's
# projects too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES VKP_WINDOWS_PREFIX)
set(CMAKE_FIND_ROOT_PATH /usr/${VKP_MINGW} ${VKP_WINDOWS_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
