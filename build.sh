#!/usr/bin/env bash
# vkpuzzles: install what is missing (as root), build, and then run the app or the tests.
#   ./build.sh run [ARGS...]   build and start vkpuzzles
#   ./build.sh test            build and run every test (lavapipe; GUI tests under xvfb-run)
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(
  cmake g++ make pkg-config
  libvulkan-dev libshaderc-dev glslang-dev spirv-tools spirv-headers mesa-vulkan-drivers
  vulkan-validationlayers libtomlplusplus-dev nlohmann-json3-dev libglm-dev
  libglfw3-dev libimgui-dev libstb-dev fonts-dejavu-core googletest libgtest-dev xvfb xauth xdotool
  clang libclang-rt-14-dev
)

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "vkpuzzles needs these Debian packages: ${missing[*]}" >&2
    echo "run this script as root to install them, or: sudo apt-get install ${missing[*]}" >&2
    exit 2
  fi
  echo "installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

build() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build build -j2
}

case "${1:-run}" in
  run)
    install_missing
    build >/dev/null
    shift || true
    exec build/vkpuzzles "$@"
    ;;
  test)
    install_missing
    build
    # CI has no GPU: the tests run on lavapipe whatever the machine has.
    export VKPUZZLES_DEVICE="${VKPUZZLES_TEST_DEVICE:-llvmpipe}"
    ctest --test-dir build --output-on-failure -j2 --timeout 600
    ;;
  *)
    echo "usage: ./build.sh run [ARGS...] | ./build.sh test" >&2
    exit 2
    ;;
esac
