#!/bin/bash
# Installs the Debian 12 packages dmtune needs; skips what is there.
# Usage: packaging/install-deps.sh [--tests] [--lab]
#   (none)   what builds and runs the programs (packaging/build-and-run.sh)
#   --tests  adds what the unit, gui, live and package tests and the code checks use: umockdev, Xvfb and
#            ImageMagick for screenshots, sshd, pcp's daemons, Prometheus and node_exporter, clang-tidy
#            and clang-format, strace (the list scan's file-open count) (packaging/build-and-test.sh)
#   --lab    adds what the vm and package tests need (implies --tests): QEMU & co., debootstrap,
#            lintian and rpm
set -euo pipefail

# The build (compiler, ccache, Ninja, Qt, the libraries core links, clang and bpftool for the BPF probe,
# rsvg-convert for the icons) and what the programs run (fio, iostat, dmsetup, udev).
PKGS=(
    build-essential cmake ninja-build ccache pkg-config git
    qt6-base-dev qt6-base-dev-tools qt6-svg-dev libqcustomplot-dev qt6-l10n-tools qt6-tools-dev
    libudev-dev libdevmapper-dev libblkid-dev libpcp3-dev libcurl4-openssl-dev
    clang libbpf-dev bpftool librsvg2-bin
    fio sysstat util-linux fdisk udev dmsetup
)
TEST_PKGS=(
    umockdev libumockdev-dev
    clang-tidy clang-format
    xvfb xauth imagemagick poppler-utils
    file appstream desktop-file-utils
    openssh-client openssh-server strace
    pcp python3-pcp prometheus prometheus-node-exporter
)
LAB_PKGS=(qemu-system-x86 busybox-static kmod cpio xz-utils multipath-tools debootstrap lintian rpm)

tests=0 lab=0
for arg in "$@"; do
    case $arg in
    --tests) tests=1 ;;
    --lab) tests=1 lab=1 ;;
    *) echo "usage: install-deps.sh [--tests] [--lab]" >&2; exit 2 ;;
    esac
done
want=("${PKGS[@]}")
[ "$tests" = 1 ] && want+=("${TEST_PKGS[@]}")
[ "$lab" = 1 ] && want+=("${LAB_PKGS[@]}")

missing=()
for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# openssh-server's postinst starts the system's sshd on port 22; the remote tests start their own sshd on a free
# 127.0.0.1 port, so a policy-rc.d forbids starting any service while the packages go in.
policy=/usr/sbin/policy-rc.d
own_policy=0
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
    $SUDO chmod 755 "$policy"
    own_policy=1
fi
# pcp's postinst runs systemctl, which fails where systemd is not PID 1: a no-op systemctl first in PATH
# while it is configured (the fleet tests start their own pmcd on a loopback port, never the service).
noop=$(mktemp -d)
printf '#!/bin/sh\nexit 0\n' >"$noop/systemctl"
chmod 755 "$noop/systemctl"
status=0
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || status=$?
if [ "$status" != 0 ] && dpkg-query -W -f='${Status}' pcp 2>/dev/null | grep -q "half-configured\|unpacked"; then
    status=0
    $SUDO env PATH="$noop:$PATH" dpkg --configure -a >/dev/null || status=$?
fi
rm -rf "$noop"
[ "$own_policy" = 1 ] && $SUDO rm -f "$policy"
exit "$status"
