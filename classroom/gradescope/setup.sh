#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (docs/graders.md).
# It installs vkpuzzles from the .deb in the autograder's zip (vkpuzzles_VERSION_amd64.deb, made
# by `cpack -G DEB` on Debian 13, as CI does) with lavapipe, Mesa's CPU Vulkan driver.
#
# On Debian 13 the .deb installs as it is. Gradescope's image is Ubuntu 22.04 (jammy), where it
# cannot (it depends on libtomlplusplus3, which jammy lacks, and on Debian 13's newer libraries),
# and vkpuzzles cannot be built there from Ubuntu's packages either (jammy has no libshaderc-dev
# and no libtomlplusplus-dev). So on Ubuntu this makes a Debian 13 root with debootstrap in
# /opt/vkpuzzles-debian, installs the .deb in it, and run_autograder grades inside it (chroot).
# debootstrap checks what it fetches against debian-archive-keyring.gpg, which the zip holds too
# (copy it from /usr/share/keyrings/ on Debian 13: jammy's own keyring predates Debian 13's keys).
# Not tried on Gradescope itself: this machine can run neither Ubuntu nor Gradescope's image.
set -euo pipefail
cd "$(dirname "$0")"

debs=(vkpuzzles_*_amd64.deb)
if [ ! -f "${debs[0]}" ] || [ ${#debs[@]} -ne 1 ]; then
  echo "setup.sh: put one vkpuzzles_VERSION_amd64.deb beside setup.sh in the zip" >&2
  exit 1
fi
deb=${debs[0]}

# shellcheck source=/dev/null
. /etc/os-release
if [ "$ID" = debian ] && [ "${VERSION_ID%%.*}" -ge 13 ] 2>/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "./$deb" mesa-vulkan-drivers
  vkpuzzles devices
  exit 0
fi

root=/opt/vkpuzzles-debian
[ -f debian-archive-keyring.gpg ] || {
  echo "setup.sh: on $PRETTY_NAME, put Debian 13's /usr/share/keyrings/debian-archive-keyring.gpg in the zip" >&2
  exit 1
}
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
# jammy's debootstrap may not know trixie by name; Debian's sid script makes any release.
debootstrap --variant=minbase --keyring="$PWD/debian-archive-keyring.gpg" trixie "$root" \
  http://deb.debian.org/debian /usr/share/debootstrap/scripts/sid
cp "$deb" "$root/tmp/"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root bash -c \
  "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /tmp/$deb mesa-vulkan-drivers && rm /tmp/$deb"
# The autograder's files, for run_autograder to find inside the root.
mkdir -p "$root/autograder/source"
cp -R . "$root/autograder/source/"
