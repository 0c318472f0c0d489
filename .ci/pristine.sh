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
  # Every mount inside the root, the deepest first (/dev's own submounts, the caches bound in).
  local m
  for m in $(awk -v r="$root/" 'index($2, r) == 1 { print $2 }' /proc/mounts | sort -r); do
    umount -l "$m" 2>/dev/null || true # a mount listed twice (/dev/shm) is gone after the first
  done
  # Nothing may be removed through a mount that is still there.
  if grep -q " $root/" /proc/mounts; then
    echo "warning: $root still has mounts; left in place" >&2
    return 0
  fi
  rm -rf --one-file-system "$root"
}

# Binds a folder of $VKP_CI_CACHE (made if missing) at a path inside a root, so that what a
# phase leaves there (compiled objects, lavapipe's compiled shaders) is there for the next run.
vkp_bind_cache() {
  local root=$1 name=$2 inside=$3
  mkdir -p "$VKP_CI_CACHE/$name" "$root$inside"
  mount --bind "$VKP_CI_CACHE/$name" "$root$inside" || vkp_fail "could not bind $VKP_CI_CACHE/$name at $root$inside"
}

# What CI keeps from one run to the next besides apt's downloads: ccache's objects (the test
# build, the sanitized app of the monkey test, the fuzz targets) and lavapipe's compiled shaders.
# Each is only an output of its inputs, so a cold run gives the same results, slower (about 75
# minutes against the 60 targeted). They are bound in after ./build.sh run list, so the
# newcomer's first command still starts pristine and builds cold; ccache is installed for the
# same reason only then, and is not among the packages ./build.sh installs.
vkp_keep_caches() {
  local root=$1 release=$2
  vkp_in_root "$root" 'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ccache >/dev/null 2>&1' ||
    vkp_fail "could not install ccache in the Debian $release root"
  vkp_bind_cache "$root" "ccache-$release" /root/.cache/ccache
  vkp_bind_cache "$root" "mesa-$release" /root/vkpuzzles/build/mesa-shader-cache
  vkp_in_root "$root" 'ccache --max-size 3G >/dev/null && cd /root/vkpuzzles && cmake -S . -B build -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null' ||
    vkp_fail "could not set up ccache in the Debian $release root"
}

vkp_cleanup() {
  local root
  for root in "${VKP_ROOTS[@]}"; do vkp_remove_root "$root"; done
  VKP_ROOTS=()
}
