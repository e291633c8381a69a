#!/bin/bash
# lab-multipathd.sh - INSIDE the lab VM, as root: multipath-tools' multipathd over the LUN of a map the
# lab made with dmsetup (serve-sshd.sh's mpatha, no multipathd there), and the lab's map back after it;
# for a test that reaches the guest over ssh (tests/vm/remote/tst_vm_remote: multipathd's view in a
# remote window).
#
#   lab-multipathd.sh start MAP LOGDIR    udevd, then multipathd managing MAP's LUN only, as MAP
#   lab-multipathd.sh stop                multipathd and udevd ended, the lab's MAP made again
#
# start: what multipathd needs is as in setup-multipathd.sh (udevd with the devices triggered and
# settled, dm-multipath loaded, DM_DISABLE_UDEV unset for its libdevmapper). multipathd's WWID of
# the paths is udev's ID_SERIAL ("1Linux_scsi_debug_2000"), not the lab map's UUID (from sysfs'
# naa. wwid), so multipathd would flush the lab's map as not its own: the lab's map (its UUID and
# table saved in /run) is removed first and multipathd makes its own under the same name (an
# alias). The config takes only that WWID (every other one blacklisted), no hardware handler
# (scsi_dh_alua would make the ALUA standby path refuse I/O), no queueing, paths grouped by their
# ALUA priority. Prints MPD_PID=<pid> and MPD_LOG=<its -v3 log, LOGDIR/lab-multipathd.log> once
# `multipathd show maps` lists MAP and the daemon is idle. Exit status non-zero on failure.
# stop: `multipathd shutdown`, its map removed, udevd's exit (and its control socket gone: no udev
# runs, as before start), then the lab's map made again with the saved UUID and table
# (DM_DISABLE_UDEV=1), so serve-sshd.sh's clean-up finds it as it made it.
set -u
SOCK=/org/kernel/linux/storage/multipathd
PIDFILE=/run/lab-multipathd.pid
SAVED=/run/lab-multipathd.map # the lab's map: MAP, UUID, TABLE

log() { echo "lab-multipathd: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
wait_for() { # SECONDS command...: poll every 0.1 s
    local end=$(($(date +%s) + $1))
    shift
    until "$@"; do
        [ "$(date +%s)" -ge $end ] && return 1
        sleep 0.1
    done
}
sock_listening() { awk -v p="@$SOCK" '$NF==p && $4=="00010000"{f=1} END{exit !f}' /proc/net/unix; }
manages() { multipathd show maps raw format "%n" 2>/dev/null | grep -qx "[[:space:]]*$1[[:space:]]*"; }
idle() { multipathd show daemon 2>/dev/null | grep -q idle; }
udevd_gone() { ! pgrep -x systemd-udevd >/dev/null; }
mpd_gone() { ! kill -0 "$pid" 2>/dev/null; }

[ "$(id -u)" = 0 ] || die "must run as root inside the lab VM"
case "${1:-}" in
start)
    [ $# = 3 ] || die "usage: lab-multipathd.sh start MAP LOGDIR"
    MAP=$2 LOGDIR=$3
    [ -x /sbin/multipathd ] || die "multipathd not installed on the host (apt-get install multipath-tools)"
    [ -x /lib/systemd/systemd-udevd ] || die "systemd-udevd not installed on the host (apt-get install udev)"
    ! sock_listening || die "multipathd runs already"
    uuid=$(dmsetup info -c --noheadings -o uuid "$MAP") || die "no map $MAP"
    table=$(dmsetup table "$MAP" | sed 's/ *$//')
    dm=$(dmsetup info -c --noheadings -o blkdevname "$MAP")
    path=$(ls "/sys/block/$dm/slaves" | head -1)
    [ -n "$path" ] || die "$MAP has no paths"
    printf 'MAP=%s\nUUID=%s\nTABLE=%s\n' "$MAP" "$uuid" "$table" >$SAVED
    MPD_LOG=$LOGDIR/lab-multipathd.log
    unset DM_DISABLE_UDEV
    t0=$(date +%s.%N)

    mkdir -p /run/udev
    /lib/systemd/systemd-udevd --daemon --resolve-names=never </dev/null >>"$LOGDIR/lab-udevd.log" 2>&1 ||
        die "udevd"
    udevadm trigger --type=subsystems --action=add
    udevadm trigger --type=devices --action=add
    udevadm settle -t 60 || die "udevadm settle"
    modprobe dm-multipath || die "modprobe dm-multipath"
    WWID=$(udevadm info -q property -n "/dev/$path" | sed -n 's/^ID_SERIAL=//p')
    [ -n "$WWID" ] || die "no ID_SERIAL for $path"
    dmsetup remove "$MAP" || die "dmsetup remove $MAP (the lab's)"
    udevadm settle -t 30

    mkdir -p /etc/multipath
    cat >/etc/multipath.conf <<CONF
defaults {
    user_friendly_names no
    find_multipaths no
}
blacklist {
    wwid ".*"
}
blacklist_exceptions {
    wwid "^$WWID\$"
}
devices {
    device {
        vendor "Linux"
        product "scsi_debug"
        path_grouping_policy group_by_prio
        hardware_handler "0"
        no_path_retry fail
    }
}
multipaths {
    multipath {
        wwid "$WWID"
        alias "$MAP"
    }
}
CONF
    # -d: foreground, logs to stdout (no syslog in the guest); -s: no timestamps.
    setsid multipathd -d -s -v3 </dev/null >>"$MPD_LOG" 2>&1 &
    MPD_PID=$!
    echo $MPD_PID >$PIDFILE
    wait_for 30 sock_listening || die "multipathd socket not listening (log: $MPD_LOG)"
    wait_for 60 manages "$MAP" || die "multipathd does not manage $MAP (log: $MPD_LOG)"
    wait_for 60 idle || die "multipathd not idle"
    udevadm settle -t 30
    log "multipathd (pid $MPD_PID) manages $MAP (wwid $WWID) after $(awk -v a="$t0" -v b="$(date +%s.%N)" \
        'BEGIN{printf "%.1f", b-a}') s: $(dmsetup table "$MAP")"
    echo "MPD_PID=$MPD_PID"
    echo "MPD_LOG=$MPD_LOG"
    ;;
stop)
    [ $# = 1 ] || die "usage: lab-multipathd.sh stop"
    pid=$(cat $PIDFILE 2>/dev/null) || die "not started by lab-multipathd.sh"
    MAP=$(sed -n 's/^MAP=//p' $SAVED) UUID=$(sed -n 's/^UUID=//p' $SAVED) TABLE=$(sed -n 's/^TABLE=//p' $SAVED)
    unset DM_DISABLE_UDEV
    multipathd shutdown >/dev/null 2>&1 || kill "$pid" 2>/dev/null
    if ! wait_for 30 mpd_gone; then
        log "multipathd (pid $pid) did not end: killed"
        kill -9 "$pid" 2>/dev/null
    fi
    rm -f $PIDFILE
    udevadm settle -t 30
    if dmsetup info "$MAP" >/dev/null 2>&1; then
        dmsetup remove "$MAP" || die "dmsetup remove $MAP (multipathd's)"
    fi
    udevadm settle -t 30
    udevadm control --exit || die "udevd did not exit"
    wait_for 30 udevd_gone || die "udevd still runs"
    rm -f /run/udev/control # libdevmapper takes udev as running while it is there
    export DM_DISABLE_UDEV=1
    dmsetup create "$MAP" -u "$UUID" --table "$TABLE" || die "dmsetup create $MAP (the lab's)"
    log "multipathd and udevd stopped; the lab's $MAP again: $(dmsetup table "$MAP")"
    ;;
*) die "usage: lab-multipathd.sh start MAP LOGDIR | stop" ;;
esac
exit 0
