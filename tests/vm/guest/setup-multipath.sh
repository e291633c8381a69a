#!/bin/bash
# setup-multipath.sh - build the lab's standard multipath topology INSIDE the
# lab VM (tests/vm/lab/klab.sh), as root, without udevd.
#
#   one scsi_debug LUN (64 MiB) behind 4 SCSI hosts = 4 sd paths, same WWID
#   mpatha: dm-multipath map over them, uuid mpath-<wwid without "naa.">,
#           "0 SECT multipath 0 0 2 1 round-robin 0 2 1 DA 1 DB 1
#                                    round-robin 0 2 1 DC 1 DD 1"
#   with --null-blk also: two null_blk devices (queue_mode=2) and
#   mpathn: "0 NSECT multipath 0 0 1 1 queue-length 0 2 1 N0 1 N1 1"
#
# Use:
#   source tests/vm/guest/setup-multipath.sh [--null-blk]   # exports the variables
#   bash tests/vm/guest/setup-multipath.sh [--null-blk] [-o FILE]
#       prints KEY=VALUE lines on stdout (and into FILE); the value runs to the
#       end of the line, unquoted. Progress and errors go to stderr. Exit
#       status / return value non-zero on failure.
#
# Variables:
#   MAP UUID DM (dm-N) DMDEV (/dev/mapper/MAP) WWID SECT TABLE
#   SD     the 4 sd names, in table order (sorted by SCSI host number)
#   HCTL   their H:C:T:L, same order
#   DA DB DC DD   their dev_t (MAJ:MIN); group 1 = DA DB, group 2 = DC DD
#   with --null-blk: NMAP NUUID NDM NSD (nullb names) N0 N1 NSECT NTABLE
#
# sdX names change from boot to boot (the hosts probe in parallel): the paths
# are ordered by SCSI host number, never by name.
#
# ALUA pitfall: vpd_use_hostno=0 makes scsi_debug claim implicit ALUA with the
# access state = host number % 3, so one of the 4 hosts (host 2 here: no
# other SCSI hosts exist without udevd) is "standby". Nothing attaches the
# scsi_dh_alua handler here (no udevd; the table's hw_handler is 0, so dm
# only keeps a handler that is already attached), and scsi_debug itself serves
# I/O on every path, so all paths work. Do not load scsi_dh_alua or add
# "1 alua" to a table unless the test expects that path to fail.

_dmtune_lab_setup() {
    local nullblk=0 d n
    while [ $# -gt 0 ]; do
        case "$1" in
            --null-blk) nullblk=1 ;;
            *) ;;
        esac
        shift
    done
    _lab_log() { echo "setup-multipath: $*" >&2; }
    _lab_fail() { _lab_log "ERROR: $*"; return 1; }
    [ "$(id -u)" = 0 ] || { _lab_fail "must run as root inside the lab VM"; return 1; }

    export DM_DISABLE_UDEV=1   # no udevd: libdevmapper makes /dev/mapper nodes itself

    # --- 4 SCSI paths to one LUN
    if [ ! -d /sys/module/scsi_debug ]; then
        modprobe scsi_debug add_host=4 num_tgts=1 max_luns=1 vpd_use_hostno=0 dev_size_mb=64 ndelay=200000 ||
            { _lab_fail "modprobe scsi_debug"; return 1; }
    fi
    # sd_mod is normally loaded by udev from the device's MODALIAS
    modprobe sd_mod || { _lab_fail "modprobe sd_mod"; return 1; }
    local lines=()
    for _ in $(seq 200); do
        lines=()
        for d in /sys/block/sd*; do
            [ -e "$d/device/model" ] || continue
            case "$(cat "$d/device/model")" in scsi_debug*) ;; *) continue ;; esac
            [ "$(cat "$d/size")" -gt 0 ] 2>/dev/null || continue
            [ -b "/dev/${d##*/}" ] || continue
            n=$(basename "$(readlink -f "$d/device")")     # H:C:T:L
            lines+=("${n%%:*} $n ${d##*/} $(cat "$d/dev")")
        done
        [ ${#lines[@]} -ge 4 ] && break
        sleep 0.1
    done
    [ ${#lines[@]} -eq 4 ] || { _lab_fail "expected 4 scsi_debug disks, found ${#lines[@]}"; return 1; }
    local sorted
    sorted=$(printf '%s\n' "${lines[@]}" | sort -n -k1,1)
    HCTL=$(echo "$sorted" | awk '{print $2}' | paste -sd' ')
    SD=$(echo "$sorted" | awk '{print $3}' | paste -sd' ')
    local devs
    devs=$(echo "$sorted" | awk '{print $4}')
    # shellcheck disable=SC2086
    set -- $devs
    DA=$1 DB=$2 DC=$3 DD=$4
    local sds
    read -r -a sds <<< "$SD"
    WWID=$(cat "/sys/block/${sds[0]}/device/wwid")
    [ -n "$WWID" ] || { _lab_fail "${sds[0]} has no wwid"; return 1; }
    for d in "${sds[@]}"; do
        [ "$(cat "/sys/block/$d/device/wwid")" = "$WWID" ] ||
            { _lab_fail "$d has wwid $(cat "/sys/block/$d/device/wwid"), ${sds[0]} has $WWID"; return 1; }
    done
    SECT=$(cat "/sys/block/${sds[0]}/size")

    # --- the multipath map
    modprobe dm-multipath || { _lab_fail "modprobe dm-multipath"; return 1; }
    MAP=mpatha
    UUID=mpath-${WWID#naa.}
    TABLE="0 $SECT multipath 0 0 2 1 round-robin 0 2 1 $DA 1 $DB 1 round-robin 0 2 1 $DC 1 $DD 1"
    dmsetup remove "$MAP" >/dev/null 2>&1 || true
    dmsetup create "$MAP" -u "$UUID" --table "$TABLE" || { _lab_fail "dmsetup create $MAP"; return 1; }
    DM=$(dmsetup info -c --noheadings -o blkdevname "$MAP")
    DMDEV=/dev/mapper/$MAP
    [ -b "$DMDEV" ] || { _lab_fail "$DMDEV missing"; return 1; }
    export MAP UUID DM DMDEV WWID SECT TABLE SD HCTL DA DB DC DD
    _lab_log "$MAP = $DM over $SD ($HCTL), wwid $WWID"

    # --- optional null_blk pair under a queue-length map
    if [ $nullblk = 1 ]; then
        if [ ! -d /sys/module/null_blk ]; then
            modprobe null_blk queue_mode=2 nr_devices=2 gb=1 bs=4096 irqmode=0 hw_queue_depth=64 submit_queues=2 ||
                { _lab_fail "modprobe null_blk"; return 1; }
        fi
        for _ in $(seq 50); do [ -b /dev/nullb0 ] && [ -b /dev/nullb1 ] && break; sleep 0.1; done
        if [ ! -b /dev/nullb0 ] || [ ! -b /dev/nullb1 ]; then _lab_fail "no /dev/nullb0 + nullb1"; return 1; fi
        NMAP=mpathn NUUID=mpath-lab-nullblk NSD="nullb0 nullb1"
        N0=$(cat /sys/block/nullb0/dev) N1=$(cat /sys/block/nullb1/dev) NSECT=$(cat /sys/block/nullb0/size)
        NTABLE="0 $NSECT multipath 0 0 1 1 queue-length 0 2 1 $N0 1 $N1 1"
        dmsetup remove "$NMAP" >/dev/null 2>&1 || true
        dmsetup create "$NMAP" -u "$NUUID" --table "$NTABLE" || { _lab_fail "dmsetup create $NMAP"; return 1; }
        NDM=$(dmsetup info -c --noheadings -o blkdevname "$NMAP")
        export NMAP NUUID NDM NSD N0 N1 NSECT NTABLE
        _lab_log "$NMAP = $NDM over $NSD"
    fi
    return 0
}

_dmtune_lab_vars() {
    local v
    for v in MAP UUID DM DMDEV WWID SECT TABLE SD HCTL DA DB DC DD NMAP NUUID NDM NSD N0 N1 NSECT NTABLE; do
        [ -n "${!v:-}" ] && printf '%s=%s\n' "$v" "${!v}"
    done
    return 0
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
    _dmtune_lab_setup "$@"   # sourced: return status of the setup
else
    set -u
    _out=""
    _args=()
    while [ $# -gt 0 ]; do
        case "$1" in
            -o) _out=$2; shift 2 ;;
            *) _args+=("$1"); shift ;;
        esac
    done
    _dmtune_lab_setup ${_args[@]+"${_args[@]}"} || exit 1
    _dmtune_lab_vars
    if [ -n "$_out" ]; then _dmtune_lab_vars > "$_out"; fi
fi
