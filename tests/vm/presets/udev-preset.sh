#!/bin/bash
# udev-preset.sh DMTUNECTL - INSIDE the lab VM, as root: a preset exported as udev rules sets the
# attributes of a scsi_debug path (1) on `udevadm trigger --action=change` and (2) when the path
# is added (deleted and rescanned). The rule matches the path by its WWID, not by its sdX name.
# Everything is written to the guest's throw-away overlay; logs and files go to $KLAB_OUT.
set -u
CTL=${1:?usage: udev-preset.sh DMTUNECTL}
OUT=${KLAB_OUT:?not inside the lab VM}
log() { echo "udev-preset: $*" >&2; }
die() { log "FAIL: $*"; exit 1; }
attr() { cat "/sys/block/$1/$2" | sed 's/.*\[\(.*\)\].*/\1/'; }

[ "$(id -u)" = 0 ] || die "must run as root inside the lab VM"
[ -x /lib/systemd/systemd-udevd ] || die "systemd-udevd not installed on the host (apt-get install udev)"
[ -x "$CTL" ] || die "$CTL not built"

mkdir -p /run/udev
/lib/systemd/systemd-udevd --daemon --resolve-names=never </dev/null >>"$OUT/udevd.log" 2>&1 || die "udevd"
udevadm trigger --type=subsystems --action=add
udevadm trigger --type=devices --action=add
udevadm settle -t 60
modprobe scsi_debug add_host=1 num_tgts=1 max_luns=1 dev_size_mb=16 || die "modprobe scsi_debug"
modprobe sd_mod 2>/dev/null
udevadm settle -t 60
SD=$(basename "$(ls -d /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/sd* | head -1)")
[ -n "$SD" ] || die "no scsi_debug disk"
WWID=$(cat /sys/block/$SD/device/wwid)
log "path $SD wwid $WWID; before: scheduler $(attr $SD queue/scheduler) nomerges $(attr $SD queue/nomerges)" \
    "read_ahead_kb $(attr $SD queue/read_ahead_kb) max_sectors_kb $(attr $SD queue/max_sectors_kb)" \
    "queue_depth $(attr $SD device/queue_depth)"

# The preset: saved from the path (keyed by its WWID), then edited as an operator would.
rm -f "$OUT/path.json" # an earlier run's preset: save never replaces one silently
"$CTL" preset save "$OUT/path.json" "$SD" --attr queue/scheduler --attr queue/nomerges --attr queue/read_ahead_kb \
    --attr queue/max_sectors_kb --attr device/queue_depth --name "lab path" || die "preset save"
grep -q "\"wwid\": \"$WWID\"" "$OUT/path.json" || die "the saved rule does not match on the WWID"
sed -i -e 's/"queue\/scheduler": "[^"]*"/"queue\/scheduler": "none"/' \
       -e 's/"queue\/nomerges": "[^"]*"/"queue\/nomerges": "2"/' \
       -e 's/"queue\/read_ahead_kb": [0-9]*/"queue\/read_ahead_kb": 2048/' \
       -e 's/"queue\/max_sectors_kb": [0-9]*/"queue\/max_sectors_kb": 64/' \
       -e 's/"device\/queue_depth": [0-9]*/"device\/queue_depth": 7/' "$OUT/path.json"
cat "$OUT/path.json" >&2
"$CTL" preset verify "$OUT/path.json" > "$OUT/verify-before.txt"
[ $? = 1 ] || die "verify before the rule: expected drift (exit 1)"

"$CTL" preset export "$OUT/path.json" --format udev -o "$OUT/99-dmtune-lab-path.rules" 2>"$OUT/export.err" || die "export"
cat "$OUT/99-dmtune-lab-path.rules" >&2
grep -q "ATTRS{wwid}==\"$WWID\"" "$OUT/99-dmtune-lab-path.rules" || die "the rule does not match on ATTRS{wwid}"
mkdir -p /etc/udev/rules.d
cp "$OUT/99-dmtune-lab-path.rules" /etc/udev/rules.d/ || die "install the rule"
udevadm control --reload || die "udevadm control --reload"

check() { # NAME: every attribute at the preset's value, and dmtunectl agrees (verify exit 0)
    local sd=$1 ok=1
    [ "$(attr $sd queue/scheduler)" = none ] || { log "$sd scheduler $(attr $sd queue/scheduler)"; ok=0; }
    [ "$(attr $sd queue/nomerges)" = 2 ] || { log "$sd nomerges $(attr $sd queue/nomerges)"; ok=0; }
    [ "$(attr $sd queue/read_ahead_kb)" = 2048 ] || { log "$sd read_ahead_kb $(attr $sd queue/read_ahead_kb)"; ok=0; }
    [ "$(attr $sd queue/max_sectors_kb)" = 64 ] || { log "$sd max_sectors_kb $(attr $sd queue/max_sectors_kb)"; ok=0; }
    [ "$(attr $sd device/queue_depth)" = 7 ] || { log "$sd queue_depth $(attr $sd device/queue_depth)"; ok=0; }
    "$CTL" preset verify "$OUT/path.json" > "$OUT/verify-$2.txt" || { log "dmtunectl preset verify: drift"; cat "$OUT/verify-$2.txt" >&2; ok=0; }
    [ $ok = 1 ]
}

# (1) change event
udevadm trigger --action=change "/sys/block/$SD" || die "udevadm trigger"
udevadm settle -t 60
check "$SD" change || die "after udevadm trigger --action=change"
log "change: $SD has the preset's values"

# (2) add: put the old defaults back by hand, remove the path and scan it in again.
echo mq-deadline > /sys/block/$SD/queue/scheduler 2>/dev/null
echo 0 > /sys/block/$SD/queue/nomerges
echo 128 > /sys/block/$SD/queue/read_ahead_kb
HOST=$(basename "$(readlink -f /sys/block/$SD/device/../..)") # .../hostN/targetH:C:T/H:C:T:L
case "$HOST" in host*) ;; *) die "no SCSI host for $SD ($HOST)";; esac
echo 1 > /sys/block/$SD/device/delete || die "delete $SD"
udevadm settle -t 60
[ -e /sys/block/$SD ] && die "$SD still there after delete"
echo "- - -" > /sys/class/scsi_host/$HOST/scan || die "rescan $HOST"
udevadm settle -t 60
NEW=$(basename "$(ls -d /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/sd* | head -1)")
[ -n "$NEW" ] || die "no disk after the rescan"
[ "$(cat /sys/block/$NEW/device/wwid)" = "$WWID" ] || die "a different WWID after the rescan"
check "$NEW" add || die "after the path was added again ($NEW)"
log "add: $NEW (was $SD) has the preset's values"
log "PASS"
