#!/bin/bash
# setup-multipathd.sh - run multipath-tools' multipathd INSIDE the lab VM, as root, over one
# scsi_debug LUN behind 4 SCSI hosts (needs multipath-tools and udev on the host: klab.sh
# installs them). Prints KEY=VALUE lines on stdout (and into FILE with -o FILE):
#   MAP=mpatha  DM=dm-0  SECT=65536
#   TABLE=<the table multipathd made>
#   G1..G4=<dev_t of the path of group 1..4>  P1..P4=<its sd name>
#   MPD_PID=<pid>  MPD_LOG=<multipathd -v3 log, in $KLAB_OUT>
# Progress and errors go to stderr; exit status non-zero on failure.
#
# What multipathd needs (see docs/multipath.md):
# * udevd: multipathd only takes udev-initialised devices, its blacklist exception needs the
#   udev properties SCSI_IDENT_* / ID_WWN and the WWID comes from ID_SERIAL.
# * dm-multipath loaded by hand (the systemd unit does it in ExecStartPre).
# * find_multipaths no: the default "strict" only takes WWIDs listed in /etc/multipath/wwids,
#   which starts empty here. The device entry pins one path per group (failover) and turns
#   queueing on (no_path_retry 12), so that disablequeueing/restorequeueing change something.
# * Start it after the paths exist and udev has settled: later paths are grouped in arrival
#   order until the next reload.
# The resulting map: 4 service-time groups of one path, hwhandler "1 alua" (the kernel loads
# scsi_dh_alua), groups sorted by ALUA priority; the last group's path is ALUA standby, which
# rejects I/O: do not switch to it.
set -u
OUT=${KLAB_OUT:-/tmp}
MPD_LOG=$OUT/multipathd-daemon.log
SOCK=/org/kernel/linux/storage/multipathd
MAP=mpatha
outfile=""
[ "${1:-}" = -o ] && outfile=$2

log() { echo "setup-multipathd: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
wait_for() { # SECONDS command...: poll every 0.1 s
    local end=$(( $(date +%s) + $1 )); shift
    until "$@"; do [ "$(date +%s)" -ge $end ] && return 1; sleep 0.1; done
}
sock_listening() { awk -v p="@$SOCK" '$NF==p && $4=="00010000"{f=1} END{exit !f}' /proc/net/unix; }
have_map() { dmsetup ls --target multipath 2>/dev/null | grep -q "^$MAP[[:space:]]"; }
idle() { multipathd show daemon 2>/dev/null | grep -q idle; }
four_groups() { [ "$(dmsetup table $MAP 2>/dev/null | grep -o ' [0-9]*:[0-9]*' | wc -l)" = 4 ]; }

[ "$(id -u)" = 0 ] || die "must run as root inside the lab VM"
[ -x /sbin/multipathd ] || die "multipathd not installed on the host (apt-get install multipath-tools)"
[ -x /lib/systemd/systemd-udevd ] || die "systemd-udevd not installed on the host (apt-get install udev)"
unset DM_DISABLE_UDEV

mkdir -p /run/udev
/lib/systemd/systemd-udevd --daemon --resolve-names=never </dev/null >>"$OUT/udevd.log" 2>&1 || die "udevd"
udevadm trigger --type=subsystems --action=add
udevadm trigger --type=devices --action=add
udevadm settle -t 60
modprobe dm-multipath || die "modprobe dm-multipath"
modprobe scsi_debug add_host=4 num_tgts=1 max_luns=1 vpd_use_hostno=0 dev_size_mb=32 || die "modprobe scsi_debug"
udevadm settle -t 60
n=$(ls -d /sys/block/sd* 2>/dev/null | wc -l)
[ "$n" = 4 ] || die "expected 4 sd paths, found $n"

mkdir -p /etc/multipath
cat > /etc/multipath.conf <<'CONF'
defaults {
    user_friendly_names yes
    find_multipaths no
}
devices {
    device {
        vendor "Linux"
        product "scsi_debug"
        path_grouping_policy failover
        no_path_retry 12
    }
}
CONF
t0=$(date +%s.%N)
# -d: foreground, logs to stdout (no syslog in the guest); -s: no timestamps.
setsid multipathd -d -s -v3 </dev/null >>"$MPD_LOG" 2>&1 &
MPD_PID=$!
wait_for 20 sock_listening || die "multipathd socket not listening (log: $MPD_LOG)"
wait_for 40 have_map || die "multipathd made no map $MAP (log: $MPD_LOG)"
wait_for 40 idle || die "multipathd not idle"
wait_for 20 four_groups || die "$MAP has not 4 paths: $(dmsetup table $MAP)"
udevadm settle -t 30
log "multipathd ready after $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s"
# One I/O makes group 1 the kernel's current group.
dd if=/dev/mapper/$MAP of=/dev/null bs=4096 count=16 iflag=direct status=none || die "read through $MAP"

vars() {
    local i=1 d
    echo "MAP=$MAP"
    echo "DM=$(dmsetup info -c --noheadings -o blkdevname $MAP)"
    echo "SECT=$(blockdev --getsz /dev/mapper/$MAP)"
    echo "TABLE=$(dmsetup table $MAP | sed 's/ *$//')"
    for d in $(dmsetup table $MAP | grep -o ' [0-9]*:[0-9]*'); do
        echo "G$i=$d"
        echo "P$i=$(basename "$(readlink -f /sys/dev/block/$d)")"
        i=$((i + 1))
    done
    echo "MPD_PID=$MPD_PID"
    echo "MPD_LOG=$MPD_LOG"
}
vars
[ -n "$outfile" ] && vars > "$outfile"
exit 0
