#!/bin/bash
# shellcheck disable=SC2012,SC2054  # ls on our own .deb names; QEMU options contain commas
# klab.sh - dmtune's kernel lab: boot Debian's stock kernel in QEMU and run
# one command inside it as root, with scsi_debug / dm-multipath / null_blk
# available as modules (see docs/lab.md).
#
# The guest's root file system is the host's "/" shared read-only over 9p
# with a throw-away tmpfs overlay on top, so host binaries (dmsetup, fio, our
# build tree and its Qt libraries) run unchanged in the guest. Only the kernel
# and its modules come from the linux-image .deb, which is downloaded with
# apt-get and unpacked into the work directory (never installed).
#
# Exit status: the guest command's; 124 on timeout; 125 when the guest never
# reported a result (boot failure, panic, ...) or the lab could not be set up.
set -euo pipefail

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

usage() {
    cat <<EOF
usage: $(basename "$0") [options] [--] command [args...]

Runs 'command' as root inside a VM running Debian's linux-image-amd64 kernel.
The command starts in the current directory, sees the host's file system
(read-only; other writes go to a throw-away overlay) and finds a writable
directory shared with the host in \$KLAB_OUT.

options:
  -w DIR    work directory: kernel, initramfs cache
            (default \$DMTUNE_LAB_WORKDIR or \${TMPDIR:-/var/tmp}/dmtune-lab)
  -o DIR    results directory shared read-write with the guest (\$KLAB_OUT;
            default WORKDIR/out). Parallel runs need distinct ones.
  -t SEC    kill the VM after SEC seconds (default 900) -> exit 124
  -a MODE   accelerator auto|kvm|tcg (auto: kvm only if usable)
  -m MB     guest memory (default 1024)     -c N   guest CPUs (default 2)
  -k PKG    kernel package (default: what linux-image-amd64 depends on)
  -e VAR=VALUE   export VAR in the guest (repeatable)
  -F PORT   give the guest a network device (virtio-net, 10.0.2.15/24) that
            only the host's loopback reaches: QEMU user networking with
            restrict=on (no way out) and 127.0.0.1:PORT forwarded to the
            guest's port 22 (the guest command starts sshd: guest/serve-sshd.sh)
  -i        interactive shell on the console (Ctrl-A X quits)
  -q        do not echo the console (it is kept in OUT/console.log)
  -n        do not apt-get install missing host packages
  -s RC     exit RC (a test runner's "skipped" code) when the lab cannot run
            on this host (not root) instead of 125
  -h        this help
EOF
}

WORKDIR=${DMTUNE_LAB_WORKDIR:-${TMPDIR:-/var/tmp}/dmtune-lab}
OUT="" ACCEL=auto MEM=1024 CPUS=2 TIMEOUT=900 KPKG="" INTERACTIVE=0 QUIET=0 INSTALL=1 SKIP_RC=125 FWD_PORT=""
GUEST_ENV=()
while [ $# -gt 0 ]; do
    case "$1" in
        -w) WORKDIR=$2; shift 2 ;;
        -o) OUT=$2; shift 2 ;;
        -t) TIMEOUT=$2; shift 2 ;;
        -a) ACCEL=$2; shift 2 ;;
        -m) MEM=$2; shift 2 ;;
        -c) CPUS=$2; shift 2 ;;
        -k) KPKG=$2; shift 2 ;;
        -e) GUEST_ENV+=("$2"); shift 2 ;;
        -F) FWD_PORT=$2; shift 2 ;;
        -i) INTERACTIVE=1; shift ;;
        -q) QUIET=1; shift ;;
        -n) INSTALL=0; shift ;;
        -s) SKIP_RC=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        --) shift; break ;;
        -*) echo "klab: unknown option $1" >&2; usage >&2; exit 2 ;;
        *) break ;;
    esac
done
[ $# -gt 0 ] || [ $INTERACTIVE = 1 ] || { usage >&2; exit 2; }
if [ -n "$FWD_PORT" ]; then
    case "$FWD_PORT" in *[!0-9]*) echo "klab: -F needs a port number" >&2; exit 2 ;; esac
    if [ "$FWD_PORT" -lt 1 ] || [ "$FWD_PORT" -gt 65535 ]; then echo "klab: -F port out of range" >&2; exit 2; fi
fi

log() { echo "klab: $*" >&2; }
die() { echo "klab: error: $*" >&2; exit 125; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }
T0=$(now)

if [ "$(id -u)" != 0 ]; then
    echo "klab: the lab needs root (QEMU exports / over 9p; apt-get): not run" >&2
    exit "$SKIP_RC"
fi

mkdir -p "$WORKDIR"
WORKDIR=$(cd "$WORKDIR" && pwd)
case "$WORKDIR" in *[[:space:]]*) die "work directory path must not contain blanks" ;; esac

# Everything up to the QEMU start (apt, kernel cache, initramfs) runs under a
# lock, so that parallel runs (ctest -j) share one download and extraction.
exec 9>"$WORKDIR/.lock"
flock 9

# ------------------------------------------------------------ host packages
# qemu + busybox build the VM; the rest are tools guest commands run from the
# host file system.
HOST_PKGS="qemu-system-x86 busybox-static kmod cpio xz-utils dmsetup fio udev multipath-tools"
missing=""
for p in $HOST_PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    [ $INSTALL = 1 ] || die "missing host packages:$missing"
    log "installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    apt-get install -y -q --no-install-recommends $missing >/dev/null ||
        { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends $missing >/dev/null; } ||
        die "apt-get install$missing failed"
fi

# ------------------------------------------------------------ kernel
resolve_kpkg() { apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}'; }
if [ -z "$KPKG" ]; then
    KPKG=$(resolve_kpkg)
    [ -n "$KPKG" ] || { apt-get update -q >/dev/null || true; KPKG=$(resolve_kpkg); }
    [ -n "$KPKG" ] || die "cannot resolve linux-image-amd64 (apt lists?)"
fi
KDIR=$WORKDIR/$KPKG
if [ ! -f "$KDIR/.ready" ]; then
    t=$(now)
    rm -rf "$KDIR" "$WORKDIR/deb"
    mkdir -p "$WORKDIR/deb"
    deb=$(ls /var/cache/apt/archives/"$KPKG"_*_amd64.deb 2>/dev/null | tail -1 || true)
    if [ -z "$deb" ]; then
        log "downloading $KPKG"
        (cd "$WORKDIR/deb" && apt-get download -q "$KPKG" >/dev/null 2>&1) ||
            { apt-get update -q >/dev/null; (cd "$WORKDIR/deb" && apt-get download -q "$KPKG" >/dev/null); } ||
            die "apt-get download $KPKG failed"
        deb=$(ls "$WORKDIR"/deb/"$KPKG"_*.deb | tail -1)
    fi
    log "extracting $deb"
    dpkg-deb -x "$deb" "$KDIR.tmp"
    kv=$(ls "$KDIR.tmp/lib/modules")
    depmod -b "$KDIR.tmp" "$kv"
    # QEMU can boot the uncompressed ELF vmlinux through its PVH entry
    # (Debian: CONFIG_PVH=y), which skips the slow (under TCG) real-mode setup
    # and decompression. Find the compressed payload in the bzImage.
    vz=$KDIR.tmp/boot/vmlinuz-$kv vl=$KDIR.tmp/boot/vmlinux-$kv
    for c in "fd377a585a00:xz -dc" "28b52ffd:zstd -dc" "1f8b0800:gzip -dc"; do
        magic=${c%%:*} tool=${c#*:}
        command -v "${tool%% *}" >/dev/null || continue
        for off in $(LC_ALL=C grep -obUaP "$(printf '%s' "$magic" | sed 's/../\\x&/g')" "$vz" 2>/dev/null | head -3 | cut -d: -f1); do
            tail -c +$((off + 1)) "$vz" | $tool > "$vl" 2>/dev/null || true
            [ "$(head -c 4 "$vl" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] && break 2
        done
    done
    [ "$(head -c 4 "$vl" 2>/dev/null | od -An -tx1 | tr -d ' ')" = 7f454c46 ] || { rm -f "$vl"; log "no vmlinux, will boot the bzImage"; }
    mv "$KDIR.tmp" "$KDIR"
    rm -rf "$WORKDIR/deb"
    touch "$KDIR/.ready"
    # a new kernel replaces older ones (~440 MB each)
    for old in "$WORKDIR"/linux-image-*; do
        [ "$old" = "$KDIR" ] || rm -rf "$old"
    done
    log "kernel ready in $(since "$t") s"
fi
KVER=$(ls "$KDIR/lib/modules")
MODDIR=$KDIR/lib/modules/$KVER
KERNEL=$KDIR/boot/vmlinux-$KVER
[ -s "$KERNEL" ] || KERNEL=$KDIR/boot/vmlinuz-$KVER

# ------------------------------------------------------------ initramfs
# Static busybox, the modules to mount 9p + overlayfs (mods/order, always
# loaded), the NIC's (mods/net-order, loaded only with -F), and init.sh. Named
# by the content of init.sh and the module lists, so an edited one gets a new one.
BOOT_MODS="virtio_pci 9pnet_virtio 9p overlay" NET_MODS="virtio_net"
INITRD=$WORKDIR/initrd-$KVER-$({ cat "$LAB_DIR/init.sh" /bin/busybox; echo "$BOOT_MODS/$NET_MODS"; } | md5sum | cut -c1-12).cpio.gz
if [ ! -f "$INITRD" ]; then
    R=$WORKDIR/initramfs-root
    rm -rf "$R"
    mkdir -p "$R"/{bin,dev,proc,sys,lower,upper,newroot,mods}
    cp /bin/busybox "$R/bin/busybox"
    for list in "order:$BOOT_MODS" "net-order:$NET_MODS"; do
        for m in ${list#*:}; do
            modprobe -d "$KDIR" -S "$KVER" --show-depends "$m" | awk -v l="${list%%:*}" '$1=="insmod"{print l, $2}'
        done
    done | awk '!seen[$2]++' | while read -r l ko; do
        cp "$ko" "$R/mods/"
        basename "$ko" >> "$R/mods/$l"
    done
    cp "$LAB_DIR/init.sh" "$R/init"
    chmod 755 "$R/init"
    (cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$INITRD.tmp"
    mv "$INITRD.tmp" "$INITRD"
    rm -rf "$R"
    for old in "$WORKDIR"/initrd-*.cpio.gz; do
        [ "$old" = "$INITRD" ] || rm -f "$old"
    done
fi
flock -u 9

# ------------------------------------------------------------ accelerator
if [ "$ACCEL" = auto ]; then
    ACCEL=tcg
    if [ -r /dev/kvm ] && [ -w /dev/kvm ] && grep -qE '^flags.* (vmx|svm)( |$)' /proc/cpuinfo; then
        ACCEL=kvm
    fi
fi
case "$ACCEL" in
    kvm) ACCEL_OPTS=(-accel kvm -cpu host) ;;
    tcg) ACCEL_OPTS=(-accel tcg,thread=multi,tb-size=256 -cpu max) ;;
    *) die "bad accelerator $ACCEL" ;;
esac

# ------------------------------------------------------------ run
[ -n "$OUT" ] || OUT=$WORKDIR/out
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
case "$OUT" in *[[:space:]]*) die "results directory path must not contain blanks" ;; esac
rm -f "$OUT/rc" "$OUT/console.log" "$OUT/cmd.sh"

# The guest's PID 1 runs this with bash after switching into the overlay root.
{
    echo "export KLAB_OUT=$(printf %q "$OUT") KLAB_LAB_DIR=$(printf %q "$LAB_DIR")"
    echo "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb LANG=C.UTF-8"
    for e in ${GUEST_ENV[@]+"${GUEST_ENV[@]}"}; do echo "export $(printf %q "$e")"; done
    echo "cd $(printf %q "$PWD") 2>/dev/null || cd /"
    if [ $INTERACTIVE = 1 ]; then
        echo "exec /bin/bash -i"
    else
        printf 'exec'; printf ' %q' "$@"; echo
    fi
} > "$OUT/cmd.sh"

APPEND="console=ttyS0 panic=-1 quiet loglevel=4 klab.out=$OUT klab.moddir=$MODDIR klab.interactive=$INTERACTIVE"
NET_OPTS=()
if [ -n "$FWD_PORT" ]; then
    # restrict=on: the guest reaches nothing (no host, no internet); only the forward
    # (bound to the host's loopback) reaches the guest. The guest's address is QEMU's
    # first DHCP address, set statically by init.sh.
    NET_OPTS=(-netdev "user,id=n0,restrict=on,hostfwd=tcp:127.0.0.1:$FWD_PORT-:22" -device virtio-net-pci,netdev=n0)
    APPEND="$APPEND klab.net=10.0.2.15/24"
fi
QEMU=(qemu-system-x86_64 -nodefaults -no-user-config "${ACCEL_OPTS[@]}"
      -machine q35 -m "$MEM" -smp "$CPUS" -display none -no-reboot
      -kernel "$KERNEL" -initrd "$INITRD" -append "$APPEND"
      -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap
      -virtfs local,path="$OUT",mount_tag=klabout,security_model=none,multidevs=remap
      -device virtio-rng-pci ${NET_OPTS[@]+"${NET_OPTS[@]}"})

log "kernel $KVER, $ACCEL, ${MEM} MiB, $CPUS cpus${FWD_PORT:+, 127.0.0.1:$FWD_PORT -> guest :22}, setup $(since "$T0") s"
t=$(now)
set +e
if [ $INTERACTIVE = 1 ]; then
    "${QEMU[@]}" -serial mon:stdio
    qrc=$?
elif [ $QUIET = 1 ]; then
    timeout -k 10 "$TIMEOUT" "${QEMU[@]}" -serial stdio </dev/null >"$OUT/console.log" 2>&1
    qrc=$?
else
    timeout -k 10 "$TIMEOUT" "${QEMU[@]}" -serial stdio </dev/null 2>&1 | tee "$OUT/console.log"
    qrc=${PIPESTATUS[0]}
fi
set -e
log "VM ran $(since "$t") s (qemu exit $qrc)"

if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
    # Say where it stopped: the guest command still running, or done (rc written) and the VM not powering off.
    if [ -s "$OUT/rc" ]; then
        log "timeout after $TIMEOUT s: the guest command had ended (exit $(cat "$OUT/rc")), the VM did not power off"
    else
        log "timeout after $TIMEOUT s: the guest command was still running"
    fi
    if [ $QUIET = 1 ]; then
        log "last console lines ($OUT/console.log):"
        tail -60 "$OUT/console.log" >&2
    fi
    exit 124
fi
if [ -s "$OUT/rc" ]; then
    grc=$(cat "$OUT/rc")
elif grep -aq 'KLAB-EXIT ' "$OUT/console.log" 2>/dev/null; then
    grc=$(grep -a 'KLAB-EXIT ' "$OUT/console.log" | tail -1 | sed 's/.*KLAB-EXIT \([0-9]*\).*/\1/')
else
    log "guest did not report a result (see $OUT/console.log)"
    [ $QUIET = 1 ] && tail -20 "$OUT/console.log" >&2
    exit 125
fi
log "guest exit status $grc"
# quiet runs (ctest) still show why the guest command failed
if [ "$grc" != 0 ] && [ $QUIET = 1 ]; then
    log "last console lines ($OUT/console.log):"
    tail -100 "$OUT/console.log" >&2
fi
exit "$grc"
