#!/usr/bin/env bash
# vkpuzzles: install what is missing (as root), build, and then run the app or the tests.
#   ./build.sh run [ARGS...]   build and start vkpuzzles (ARGS go to it: ./build.sh run list)
#   ./build.sh test            build and run every test (lavapipe; GUI tests under Xvfb)
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
  *)
    echo "usage: ./build.sh run [ARGS...] | ./build.sh test" >&2
    exit 2
    ;;
esac
