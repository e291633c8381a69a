#!/bin/busybox sh
# /init of the lab initramfs (static busybox), built by klab.sh.
# Stage 1 (initramfs): load virtio/9p/overlay modules (and with klab.net=ADDR
#   the NIC's, and set its address), mount the host's "/"
#   (9p, read-only) under a tmpfs overlay and switch_root into it (a real root,
#   not a chroot: systemd tools refuse chroots).
# Stage 2 (PID 1 in the new root): run OUT/cmd.sh written by klab.sh, store
#   its exit status in OUT/rc, print "KLAB-EXIT <rc>" and power off.
KB=/.klab/busybox

if [ "$1" = stage2 ]; then
    OUT=$2 INTERACTIVE=$3
    export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
    echo "KLAB-READY uptime=$($KB cut -d' ' -f1 /proc/uptime)"
    SH=/bin/sh; [ -x /bin/bash ] && SH=/bin/bash
    if [ "$INTERACTIVE" = 1 ]; then
        $KB setsid $KB cttyhack $SH "$OUT/cmd.sh"
    else
        $SH "$OUT/cmd.sh" </dev/null
    fi
    rc=$?
    echo "$rc" > "$OUT/rc"
    # The result first: a sync that hangs (I/O queued on a map without paths) must not hide it.
    echo "KLAB-EXIT $rc uptime=$($KB cut -d' ' -f1 /proc/uptime)"
    $KB timeout 20 $KB sync
    $KB umount "$OUT" 2>/dev/null
    $KB poweroff -f
    $KB sleep 5
    echo o > /proc/sysrq-trigger
    exit 0
fi

/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "KLAB-INIT uptime=$(cut -d' ' -f1 /proc/uptime)"

fail() { echo "KLAB-EXIT 125 ($*)"; sync; poweroff -f; sleep 5; echo o > /proc/sysrq-trigger; }

OUT= MODDIR= INTERACTIVE=0 NET=
for a in $(cat /proc/cmdline); do
    case "$a" in
        klab.out=*) OUT=${a#klab.out=} ;;
        klab.moddir=*) MODDIR=${a#klab.moddir=} ;;
        klab.interactive=*) INTERACTIVE=${a#klab.interactive=} ;;
        klab.net=*) NET=${a#klab.net=} ;;
    esac
done
KVER=$(uname -r)

for m in $(cat /mods/order); do
    insmod /mods/$m || fail "insmod $m"
done

# klab.sh -F: the NIC of QEMU's user network (restrict=on), a static address on
# it, no route beyond its /24 (only the host's forwarded port reaches the guest).
if [ -n "$NET" ]; then
    for m in $(cat /mods/net-order 2>/dev/null); do
        insmod /mods/$m || fail "insmod $m"
    done
    IF=
    for _ in $(seq 50); do
        for d in /sys/class/net/*; do
            [ "${d##*/}" = lo ] || { IF=${d##*/}; break; }
        done
        [ -n "$IF" ] && break
        sleep 0.1
    done
    [ -n "$IF" ] || fail "no network device"
    ip link set "$IF" up || fail "ip link set $IF up"
    ip addr add "$NET" dev "$IF" || fail "ip addr add $NET dev $IF"
    echo "KLAB-NET $IF $NET"
fi

mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144,cache=loose hostroot /lower || fail "mount hostroot"
mount -t tmpfs -o mode=755 tmpfs /upper
mkdir -p /upper/u /upper/w
mount -t overlay overlay -o lowerdir=/lower,upperdir=/upper/u,workdir=/upper/w /newroot || fail "mount overlay"

R=/newroot
mount -t proc proc $R/proc
mount -t sysfs sysfs $R/sys
mount -t devtmpfs devtmpfs $R/dev
mkdir -p $R/dev/pts $R/dev/shm
mount -t devpts devpts $R/dev/pts
mount -t tmpfs tmpfs $R/dev/shm
# /tmp stays on the overlay: host files visible, writes discarded at power-off.
mount -t tmpfs -o mode=755 tmpfs $R/run
mount -t debugfs debugfs $R/sys/kernel/debug 2>/dev/null
# Kernel modules for modprobe: the unpacked .deb tree (seen through the 9p root).
mkdir -p $R/lib/modules/$KVER
mount --bind $R$MODDIR $R/lib/modules/$KVER || fail "bind modules"
# Writable results directory shared with the host, at the same path.
mkdir -p $R$OUT
mount -t 9p -o trans=virtio,version=9p2000.L,cache=none,msize=262144 klabout $R$OUT || fail "mount out"
hostname klab
ip link set lo up 2>/dev/null
mkdir -p $R/.klab
cp /bin/busybox $R$KB
cp /init $R/.klab/init
exec switch_root $R $KB sh /.klab/init stage2 "$OUT" "$INTERACTIVE"
