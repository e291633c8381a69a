#!/bin/bash
# multipath-preset.sh DMTUNECTL - INSIDE the lab VM, as root: a preset's per-map multipath settings
# (selector, grouping, features) and queue settings applied to the lab's mpatha by
# `dmtunectl preset apply` (table reload + attribute transaction), then verified; a preset whose
# attribute write the kernel refuses leaves both the attributes and the table as they were.
# Logs and files go to $KLAB_OUT.
set -u
CTL=${1:?usage: multipath-preset.sh DMTUNECTL}
OUT=${KLAB_OUT:?not inside the lab VM}
HERE=$(cd "$(dirname "$0")" && pwd)
log() { echo "multipath-preset: $*" >&2; }
die() { log "FAIL: $*"; exit 1; }

source "$HERE/../guest/setup-multipath.sh" || die "setup-multipath.sh"
log "$MAP ($DM, uuid $UUID) over $SD: $(dmsetup table $MAP)"

cat > "$OUT/mpath.json" <<JSON
{
    "schema": 1,
    "name": "lab map",
    "rules": [
        { "comment": "the map", "match": { "dmUuid": "$UUID" },
          "settings": { "queue/max_sectors_kb": 128 },
          "multipath": { "selector": "service-time 0", "grouping": "multibus", "features": "queue_if_no_path" } },
        { "comment": "its paths", "match": { "pathsOf": { "dmUuid": "$UUID" } },
          "settings": { "queue/max_sectors_kb": 128 } }
    ]
}
JSON
"$CTL" preset verify "$OUT/mpath.json" > "$OUT/verify-before.txt" 2>&1
rc=$?; cat "$OUT/verify-before.txt" >&2
[ $rc = 1 ] || die "verify before apply: exit $rc, expected 1 (drift)"

before=$(dmsetup table $MAP)
"$CTL" preset apply "$OUT/mpath.json" --dry-run --force > "$OUT/dry-run.txt" 2>&1 || { cat "$OUT/dry-run.txt" >&2; die "dry run"; }
cat "$OUT/dry-run.txt" >&2
[ "$(dmsetup table $MAP)" = "$before" ] || die "the dry run changed the table"

"$CTL" preset apply "$OUT/mpath.json" --force > "$OUT/apply.txt" 2>&1
rc=$?; cat "$OUT/apply.txt" >&2
[ $rc = 0 ] || die "apply: exit $rc"
after=$(dmsetup table $MAP)
log "table after: $after"
case "$after" in *" multipath 1 queue_if_no_path 0 1 1 service-time 0 4 2 "*) ;; *) die "table not as the preset says";; esac
for d in $DM $SD; do
    [ "$(cat /sys/block/$d/queue/max_sectors_kb)" = 128 ] || die "$d max_sectors_kb $(cat /sys/block/$d/queue/max_sectors_kb)"
done
"$CTL" preset verify "$OUT/mpath.json" > "$OUT/verify-after.txt" 2>&1
rc=$?; cat "$OUT/verify-after.txt" >&2
[ $rc = 0 ] || die "verify after apply: exit $rc, expected 0"

# All or nothing: the selector/grouping reload goes through, then the kernel refuses the map's
# max_sectors_kb (far above what its paths take): the attribute transaction rolls back and the
# map gets its old table back. Exit 1, nothing changed.
sed -e 's/"service-time 0", "grouping": "multibus"/"round-robin 0", "grouping": "failover"/' \
    -e '0,/"queue\/max_sectors_kb": 128/s//"queue\/max_sectors_kb": 999999999/' "$OUT/mpath.json" > "$OUT/bad.json"
"$CTL" preset apply "$OUT/bad.json" --force > "$OUT/apply-bad.txt" 2>&1
rc=$?; cat "$OUT/apply-bad.txt" >&2
[ $rc = 1 ] || die "apply of a value the kernel refuses: exit $rc, expected 1"
grep -q "multipath tables restored" "$OUT/apply-bad.txt" || die "no word of the tables being restored"
[ "$(dmsetup table $MAP)" = "$after" ] || die "the failed preset left the table changed: $(dmsetup table $MAP)"
[ "$(cat /sys/block/$DM/queue/max_sectors_kb)" = 128 ] || die "$DM max_sectors_kb not restored"
"$CTL" preset verify "$OUT/mpath.json" > "$OUT/verify-end.txt" 2>&1 || die "drift after the rolled-back apply"
# A built-in preset, by name, on the real map and its paths: applied, then no drift.
"$CTL" preset apply merge-friendly-sequential-writes > "$OUT/apply-builtin.txt" 2>&1
rc=$?; cat "$OUT/apply-builtin.txt" >&2
[ $rc = 0 ] || die "apply of the built-in merge-friendly preset: exit $rc"
"$CTL" preset verify merge-friendly-sequential-writes > "$OUT/verify-builtin.txt" 2>&1 || { cat "$OUT/verify-builtin.txt" >&2; die "drift after applying the built-in"; }
[ "$(cat /sys/block/$DM/queue/nr_requests)" = 256 ] || die "$DM nr_requests $(cat /sys/block/$DM/queue/nr_requests)"
for d in $SD; do
    [ "$(cat /sys/block/$d/device/queue_depth)" = 16 ] || die "$d queue_depth $(cat /sys/block/$d/device/queue_depth)"
done
log "PASS"
