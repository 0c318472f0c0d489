#!/usr/bin/env bash
# vkpuzzles: install what is missing (as root), build, and then run the app or the tests.
#   ./build.sh run [ARGS...]   build and start vkpuzzles (ARGS go to it: ./build.sh run list)
#   ./build.sh test            build and run every test (lavapipe; GUI tests under Xvfb)
#   ./build.sh windows         cross-build vkpuzzles-VERSION-windows-x64.zip (mingw-w64, with the
#                              libraries built from Debian's own source packages; docs/platforms.md)
# Works on Debian 12 (bookworm) and Debian 13 (trixie): every package below has the same name on
# both (libclang-rt-dev is the unversioned name of clang's runtime libraries).
set -euo pipefail
cd "$(dirname "$0")"

# What building and running the app needs, and packaging it (cpack -G DEB reads the binary's
# library dependencies with dpkg-shlibdeps and file).
PACKAGES=(
  cmake g++ make pkg-config
  libvulkan-dev libshaderc-dev glslang-dev glslang-tools spirv-tools spirv-headers
  mesa-vulkan-drivers libtomlplusplus-dev nlohmann-json3-dev libglm-dev
  libglfw3-dev libimgui-dev libstb-dev fonts-dejavu-core help2man dpkg-dev file
)
# What the tests need besides (the shader tests also assemble SPIR-V text with spirv-tools, which
# is in PACKAGES: the library validates and strips SPIR-V with it).
TEST_PACKAGES=(
  googletest libgtest-dev vulkan-validationlayers xvfb xauth xdotool clang libclang-rt-dev clang-format
)

# What the Windows build needs besides PACKAGES (whose headers it copies): the cross compilers,
# volk (Vulkan's loader found at run time), and the tools that make the icon; python3 runs the
# code generators of SPIRV-Tools and glslang.
WINDOWS_PACKAGES=(
  g++-mingw-w64-x86-64-posix libvulkan-volk-dev librsvg2-bin icoutils python3 patch
)

install_missing() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "vkpuzzles needs these Debian packages: ${missing[*]}" >&2
    echo "run this script as root to install them, or: sudo apt-get install ${missing[*]}" >&2
    exit 2
  fi
  echo "installing ${#missing[@]} Debian packages: ${missing[*]}"
  local log
  log=$(mktemp /tmp/vkpuzzles-apt.XXXXXX)
  if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    tail -20 "$log" >&2
    echo "apt-get could not install the packages above (full log: $log)" >&2
    exit 2
  fi
  rm -f "$log"
}

# tests=ON|OFF: the app alone for `run`, everything for `test` (the objects are shared).
# -g1: line tables (what a backtrace names), a quarter quicker to build than full -g.
build() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DVKPUZZLES_TESTS="$1" >/dev/null
  cmake --build build -j"${VKPUZZLES_JOBS:-2}"
}

# apt-get source needs deb-src entries for this release: added once, as root, beside the deb ones,
# as a copy of apt's entry for Debian's own mirror (a deb822 stanza with its Signed-By, or a line
# with its options: apt refuses a deb-src entry whose options differ from the deb one's).
source_entries() {
  local added=/etc/apt/sources.list.d/vkpuzzles-sources
  if apt-cache showsrc --only-source glfw3 2>/dev/null | grep -q '^Version:'; then return 0; fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "the Windows build fetches Debian's source packages: add a deb-src line for this release" >&2
    echo "to /etc/apt/sources.list (or run this script as root, which adds $added.list)" >&2
    exit 2
  fi
  local codename line file
  codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
  line=$(grep -hE "^deb (\[[^]]*\] )?https?://[^ ]+/debian/? +$codename( |$)" /etc/apt/sources.list \
    /etc/apt/sources.list.d/*.list 2>/dev/null | head -1 || true)
  if [ -n "$line" ]; then
    file=$added.list
    echo "deb-src${line#deb}" >"$file"
  else
    file=$added.sources
    awk -v RS= -v ORS='\n\n' '/(^|\n)Types:[^\n]*deb/ && /(^|\n)URIs: *https?:\/\/[^ \n]*\/debian\/?(\n|$)/ {
      sub(/Types:[^\n]*/, "Types: deb-src"); print; exit }' /etc/apt/sources.list.d/*.sources >"$file" 2>/dev/null || true
    if [ ! -s "$file" ]; then
      rm -f "$file"
      echo "found no entry for Debian's mirror in /etc/apt to add a deb-src entry beside: add one for $codename" >&2
      exit 2
    fi
  fi
  echo "added $file (deb-src for Debian's source packages)"
  if ! apt-get update >/dev/null 2>&1; then
    rm -f "$file"
    echo "apt-get update failed with $file, so it was removed again; add a deb-src entry for $codename yourself" >&2
    exit 2
  fi
}

# The Windows zip: the libraries cross-built once per version (build-windows/deps), then
# vkpuzzles with mingw-w64 in build-windows, then cpack. VKPUZZLES_WINDOWS_DEPS moves the libraries'
# cache (CI keeps it between runs).
windows() {
  install_missing "${PACKAGES[@]}" "${WINDOWS_PACKAGES[@]}"
  source_entries
  mkdir -p build-windows
  local prefix started=$SECONDS
  prefix=$(packaging/windows/deps.sh "${VKPUZZLES_WINDOWS_DEPS:-build-windows/deps}")
  echo "building vkpuzzles for Windows (log: build-windows/build.log)"
  if ! { cmake -S . -B build-windows -DCMAKE_TOOLCHAIN_FILE=packaging/windows/mingw-w64.cmake \
    -DVKP_WINDOWS_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release -DVKPUZZLES_TESTS=ON \
    ${VKPUZZLES_WINDOWS_CMAKE:-} && cmake --build build-windows -j"${VKPUZZLES_JOBS:-2}" &&
    (cd build-windows && cpack); } >build-windows/build.log 2>&1; then
    grep -E "error|Error" build-windows/build.log | head -20 >&2
    echo "the Windows build failed; the whole log is in build-windows/build.log" >&2
    exit 2
  fi
  local zip
  zip=$(ls build-windows/vkpuzzles-*-windows-x64.zip)
  echo "$zip ($(du -h "$zip" | cut -f1)) in $((SECONDS - started)) s: unzip it on Windows and run vkpuzzles.exe"
}

case "${1:-run}" in
  run)
    install_missing "${PACKAGES[@]}"
    mkdir -p build
    [ -x build/vkpuzzles ] || echo "building vkpuzzles (the first build takes several minutes; log: build/build.log)"
    if ! build OFF >build/build.log 2>&1; then
      grep -E "error|Error" build/build.log | head -20 >&2
      echo "the build failed; the whole log is in build/build.log" >&2
      exit 2
    fi
    shift || true
    exec build/vkpuzzles "$@"
    ;;
  test)
    install_missing "${PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    build ON
    # CI has no GPU: the tests run on lavapipe whatever the machine has.
    export VKPUZZLES_DEVICE="${VKPUZZLES_TEST_DEVICE:-llvmpipe}"
    ctest --test-dir build --output-on-failure -j2 --timeout 600
    ;;
  windows)
    windows
    ;;
  *)
    echo "usage: ./build.sh run [ARGS...] | ./build.sh test | ./build.sh windows" >&2
    exit 2
    ;;
esac
