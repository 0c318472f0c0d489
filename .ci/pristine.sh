# Pristine Debian roots for CI: what a newcomer's fresh machine has, nothing more.
# Sourced by .ci/run. A root is a debootstrap --variant=minbase of a release, cached as a tarball in
# $VKP_CI_CACHE and unpacked fresh for every use, so nothing leaks from one run or phase to the next.
# /dev, /proc and /sys are mounted only inside a root and unmounted on every exit path.

VKP_CI_CACHE=${VKP_CI_CACHE:-$HOME/.cache/vkpuzzles-ci}
VKP_MIRROR=${VKP_MIRROR:-http://deb.debian.org/debian}
VKP_ROOTS=()     # roots made by this run, removed by vkp_cleanup
VKP_PHASES=()    # "name seconds", printed at the end

vkp_fail() {
  echo "CI FAILED: $*" >&2
  exit 1
}

# Runs "$@" as one named phase and records how long it took.
vkp_phase() {
  local name=$1
  shift
  local start=$SECONDS
  echo
  echo "=== $name"
  "$@"
  local took=$((SECONDS - start))
  VKP_PHASES+=("$(printf '%5d s  %s' "$took" "$name")")
  echo "=== $name: done in ${took} s"
}

vkp_print_phases() {
  echo
  echo "Phase timings:"
  local p
  for p in "${VKP_PHASES[@]}"; do echo "  $p"; done
  echo "  $(printf '%5d s  %s' "$SECONDS" "whole run")"
}

# The host needs debootstrap (to make a base the first time) and root (to chroot and mount).
vkp_host_ready() {
  [ "$(id -u)" -eq 0 ] || vkp_fail "pristine roots need root (chroot, mount); this CI runs as $(id -un)"
  command -v debootstrap >/dev/null && return 0
  echo "installing debootstrap on the host"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; } >/dev/null 2>&1 ||
    vkp_fail "debootstrap is not installed and apt-get could not install it"
}

# The cached base of a release: debootstrapped once, then reused.
vkp_base() {
  local release=$1
  local tarball="$VKP_CI_CACHE/base-$release.tar.gz"
  if [ -s "$tarball" ]; then
    echo "base of $release: cached ($tarball)"
    return 0
  fi
  mkdir -p "$VKP_CI_CACHE"
  local tmp
  tmp=$(mktemp -d "$VKP_CI_CACHE/debootstrap-$release.XXXXXX")
  echo "debootstrap --variant=minbase $release (once; cached afterwards)"
  if ! debootstrap --variant=minbase "$release" "$tmp/root" "$VKP_MIRROR" >"$tmp/log" 2>&1; then
    tail -15 "$tmp/log" >&2
    rm -rf "$tmp"
    vkp_fail "could not make a pristine Debian $release root with debootstrap from $VKP_MIRROR (log above)"
  fi
  tar -C "$tmp/root" -czf "$tmp/base.tar.gz" . || { rm -rf "$tmp"; vkp_fail "could not tar the $release root"; }
  mv "$tmp/base.tar.gz" "$tarball"
  rm -rf "$tmp"
}

# A fresh root of a release, unpacked from its base, with /dev, /proc and /sys mounted and the
# network's resolv.conf, in $VKP_ROOT. apt's downloaded .debs are kept across runs (only the
# download is cached: every package is still installed by the commands under test).
vkp_fresh_root() {
  local release=$1
  local root
  root=$(mktemp -d "$VKP_CI_CACHE/root-$release.XXXXXX")
  VKP_ROOTS+=("$root")
  tar -C "$root" -xzf "$VKP_CI_CACHE/base-$release.tar.gz" || vkp_fail "could not unpack the $release base into $root"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mkdir -p "$VKP_CI_CACHE/apt-$release/partial"
  mount --bind "$VKP_CI_CACHE/apt-$release" "$root/var/cache/apt/archives"
  mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev"
  mount -t proc proc "$root/proc"
  mount -t sysfs sys "$root/sys"
  VKP_ROOT=$root
}

# Runs a shell command inside a root, as root, with a clean environment.
vkp_in_root() {
  local root=$1
  shift
  chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 TERM=dumb CI=true bash -c "$*"
}

# Ends whatever still runs inside a root (an Xvfb, a worker), unmounts, removes the root.
vkp_remove_root() {
  local root=$1 pid
  for pid in /proc/[0-9]*; do
    [ "$(readlink "$pid/root" 2>/dev/null)" = "$root" ] && kill -9 "${pid#/proc/}" 2>/dev/null
  done
  local m
  for m in sys proc dev var/cache/apt/archives; do
    mountpoint -q "$root/$m" && umount -R -l "$root/$m"
  done
  # Nothing may be removed through a mount that is still there.
  if grep -q " $root/" /proc/mounts; then
    echo "warning: $root still has mounts; left in place" >&2
    return 0
  fi
  rm -rf --one-file-system "$root"
}

vkp_cleanup() {
  local root
  for root in "${VKP_ROOTS[@]}"; do vkp_remove_root "$root"; done
  VKP_ROOTS=()
}
