#!/usr/bin/env bash
# The libraries of the Windows build, cross-built with mingw-w64 from Debian's own sources:
#   packaging/windows/deps.sh CACHE      prints the prefix that holds them (CACHE/KEY/prefix)
# Compiled libraries come from Debian's source packages of this release (apt-get source: GLFW,
# glslang, SPIRV-Tools, shaderc, Dear ImGui, stb, GoogleTest), with Debian's patches applied;
# header-only ones are copied from Debian's -dev packages installed here (the Vulkan headers and
# volk, SPIRV-Headers, toml++, nlohmann-json, glm). Nothing comes from anywhere else.
# KEY is a hash of every source package's version, every header package's version, the compiler's
# version and this folder's files: a prefix is reused only when all of them are the same, and a
# change to any of them builds a new one. Needs deb-src entries for this release (build.sh adds
# them as root) and Debian's mirror the first time.
set -euo pipefail
cache=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
jobs=${VKPUZZLES_JOBS:-2}
mingw=x86_64-w64-mingw32
SOURCES=(glfw3 glslang spirv-tools shaderc imgui libstb googletest)
HEADERS=(libvulkan-dev libvulkan-volk-dev spirv-headers libtomlplusplus-dev nlohmann-json3-dev libglm-dev)

say() { echo "windows deps: $*" >&2; }
fail() {
  echo "windows deps: $*" >&2
  exit 2
}

source_version() {
  local v
  v=$(apt-cache showsrc --only-source "$1" 2>/dev/null | awk '/^Version:/ { print $2; exit }')
  [ -n "$v" ] || fail "apt knows no source package $1: add a deb-src entry for this release and run apt-get update (./build.sh windows does both as root)"
  echo "$v"
}

key() {
  {
    local p
    for p in "${SOURCES[@]}"; do echo "$p $(source_version "$p")"; done
    for p in "${HEADERS[@]}"; do echo "$p $(dpkg-query -W -f='${Version}' "$p")"; done
    $mingw-g++-posix --version | head -1
    cat "$here"/deps.sh "$here"/mingw-w64.cmake "$here"/deps/*
  } | sha256sum | cut -c1-16
}

# The source package's folder under $src, with Debian's patches applied (dpkg-source applies them
# for the 3.0 format; glslang's 1.0 format keeps them in debian/patches for quilt).
unpack() {
  local pkg=$1 version dir
  version=$(source_version "$pkg")
  dir=$src/$pkg
  [ -d "$dir" ] && { echo "$dir"; return; }
  (cd "$src" && apt-get source --download-only "$pkg=$version" >"$src/$pkg.log" 2>&1) ||
    { tail -5 "$src/$pkg.log" >&2; fail "could not download the source package $pkg $version"; }
  (cd "$src" && dpkg-source -x "$(ls "$pkg"_*.dsc | head -1)" "$pkg" >>"$src/$pkg.log" 2>&1) ||
    fail "could not unpack the source package $pkg (log: $src/$pkg.log)"
  if [ -f "$dir/debian/patches/series" ] && [ ! -f "$dir/.pc/applied-patches" ]; then
    local patch
    while read -r patch _; do
      case "$patch" in "" | "#"*) continue ;; esac
      patch -d "$dir" -p1 -s <"$dir/debian/patches/$patch" || fail "Debian's patch $patch does not apply to $pkg"
    done <"$dir/debian/patches/series"
  fi
  echo "$dir"
}

# cmake configure + build of one source tree, its log kept; then installed into the prefix, or
# with TARGETS="a b" only those targets are built (the caller copies what it needs).
cmake_build() {
  local name=$1 dir=$2
  shift 2
  local started=$SECONDS targets=() t
  for t in ${TARGETS:-}; do targets+=(--target "$t"); done
  if [ -f "$work/$name.done" ]; then return 0; fi # an interrupted run goes on where it stopped
  say "building $name"
  if ! { cmake -S "$dir" -B "$work/$name" -G "Unix Makefiles" -DCMAKE_TOOLCHAIN_FILE="$here/mingw-w64.cmake" \
    -DVKP_WINDOWS_PREFIX="$prefix" -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF "$@" &&
    cmake --build "$work/$name" -j"$jobs" "${targets[@]}" &&
    { [ -n "${TARGETS:-}" ] || cmake --install "$work/$name"; }; } >"$work/$name.log" 2>&1; then
    grep -E "error|Error" "$work/$name.log" | head -20 >&2
    fail "building $name failed (log: $work/$name.log)"
  fi
  touch "$work/$name.done"
  say "built $name in $((SECONDS - started)) s"
}

copy_headers() {
  local inc=$prefix/include
  mkdir -p "$inc"
  cp -r /usr/include/vulkan /usr/include/vk_video "$inc/"
  cp /usr/include/volk.h /usr/include/volk.c "$inc/"
  cp -r /usr/include/spirv "$inc/"
  cp -r /usr/include/toml++ /usr/include/nlohmann /usr/include/glm "$inc/"
}

build_all() {
  local d
  copy_headers
  # SPIRV-Tools reads its grammar from SPIRV-Headers' folder layout: include/spirv/unified1.
  # Only the two libraries we link (not the linker, reducer, differ and linter).
  d=$(unpack spirv-tools)
  TARGETS="SPIRV-Tools-static SPIRV-Tools-opt" cmake_build spirv-tools "$d" \
    -DSPIRV-Headers_SOURCE_DIR="$prefix" -DSPIRV_SKIP_TESTS=ON -DSPIRV_SKIP_EXECUTABLES=ON \
    -DSPIRV_WERROR=OFF -DSPIRV_TOOLS_BUILD_STATIC=ON -DSPIRV_TOOLS_LIBRARY_TYPE=STATIC
  cp "$work"/spirv-tools/source/libSPIRV-Tools.a "$work"/spirv-tools/source/opt/libSPIRV-Tools-opt.a "$prefix/lib/"
  cp -r "$d"/include/spirv-tools "$prefix/include/"
  # Debian's glslang finds SPIRV-Tools with pkg-config (its patch): the prefix's, as Debian's
  # package would describe it.
  mkdir -p "$PKG_CONFIG_LIBDIR"
  printf '%s\n' "prefix=$prefix" 'Name: SPIRV-Tools' 'Description: SPIR-V tools (cross-built)' \
    "Version: $(source_version spirv-tools | sed 's/-.*//')" \
    'Libs: -L${prefix}/lib -lSPIRV-Tools-opt -lSPIRV-Tools' 'Cflags: -I${prefix}/include' \
    >"$PKG_CONFIG_LIBDIR/SPIRV-Tools.pc"
  d=$(unpack glslang)
  cmake_build glslang "$d" -DENABLE_GLSLANG_BINARIES=OFF -DENABLE_CTEST=OFF -DBUILD_TESTING=OFF \
    -DENABLE_SPVREMAPPER=OFF
  # shaderc with Debian's patch to use the system's glslang and SPIRV-Tools: here the prefix's.
  # Only its two static libraries (glslc and the DLL are not ours to ship); they install nothing.
  d=$(unpack shaderc)
  TARGETS="shaderc_static shaderc_util" cmake_build shaderc "$d" -DSHADERC_SKIP_TESTS=ON \
    -DSHADERC_SKIP_EXAMPLES=ON -DSHADERC_SKIP_COPYRIGHT_CHECK=ON -DSHADERC_SKIP_INSTALL=ON \
    -DSHADERC_ENABLE_WERROR_COMPILE=OFF -DCMAKE_CXX_FLAGS="-I$prefix/include -I$prefix/include/glslang"
  cp "$work"/shaderc/libshaderc/libshaderc_static.a "$work"/shaderc/libshaderc_util/libshaderc_util.a "$prefix/lib/"
  mkdir -p "$prefix/include/shaderc"
  cp "$d"/libshaderc/include/shaderc/*.h "$d"/libshaderc/include/shaderc/*.hpp "$prefix/include/shaderc/"
  d=$(unpack glfw3)
  cmake_build glfw "$d" -DGLFW_BUILD_EXAMPLES=OFF -DGLFW_BUILD_TESTS=OFF -DGLFW_BUILD_DOCS=OFF
  d=$(unpack googletest)
  cmake_build googletest "$d" -DBUILD_GMOCK=OFF -Dgtest_force_shared_crt=OFF
  # Dear ImGui and stb have no build of their own for this: ours compiles their sources.
  cmake_build imgui "$here/deps" -DVKP_IMGUI_SOURCE="$(unpack imgui)" -DVKP_STB_SOURCE="$(unpack libstb)"
  licenses
}

# What the zip must say of what is linked into vkpuzzles.exe: Debian's copyright file of each
# library (the source packages', the header packages'), and mingw-w64's runtime and GCC's.
licenses() {
  local p
  mkdir -p "$prefix/licenses"
  for p in "${SOURCES[@]}"; do
    [ "$p" = googletest ] && continue # the tests', not the program's
    cp "$src/$p/debian/copyright" "$prefix/licenses/$p.txt"
  done
  for p in "${HEADERS[@]}" mingw-w64-x86-64-dev gcc-mingw-w64-x86-64-posix-runtime; do
    [ -f "/usr/share/doc/$p/copyright" ] && cp "/usr/share/doc/$p/copyright" "$prefix/licenses/$p.txt"
  done
  return 0
}

k=$(key)
prefix=$cache/$k/prefix
if [ -f "$cache/$k/complete" ]; then
  echo "$prefix"
  exit 0
fi
say "cross-building the libraries from Debian's sources into $cache/$k (once for these versions)"
src=$cache/$k/src
work=$cache/$k/build
# pkg-config must see the prefix's libraries only, never the build machine's (Linux) ones.
export PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig PKG_CONFIG_PATH=
mkdir -p "$src" "$work" "$prefix/lib" "$prefix/include"
started=$SECONDS
build_all
date -u +%FT%TZ >"$cache/$k/complete"
say "the libraries took $((SECONDS - started)) s"
echo "$prefix"
