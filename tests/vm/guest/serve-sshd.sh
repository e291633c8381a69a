#!/bin/bash
# serve-sshd.sh - INSIDE the lab VM (klab.sh -F PORT), as root: the standard multipath topology
# (setup-multipath.sh, no multipathd) and the host's /usr/sbin/sshd on the guest's port 22, which
# klab.sh forwards from 127.0.0.1:PORT on the host; for a test that runs on the host and reaches
# the guest over ssh (tests/vm/remote/tst_vm_remote).
#
#   serve-sshd.sh [-d DIR] [-t SECONDS]
#
# DIR (default $KLAB_OUT/sshd, shared with the host) holds what the host side wrote: host_key
# (the guest's private host key) and authorized_keys. This writes there:
#   sshd_config   the guest sshd's config (port 22, keys from DIR, root by key only, no PAM, the
#                 sessions get DM_DISABLE_UDEV=1 as every command of the lab does: no udevd here)
#                 (and root's ~/.bashrc is emptied in the guest's overlay: it runs for every ssh command)
#   sshd.log      sshd's log (-D -e)
#   ready         the lab's KEY=VALUE lines (setup-multipath.sh's: MAP, SD, DA..DD, TABLE, ...),
#                 written once sshd listens
# then waits until DIR/done appears (or SECONDS pass, default 420), stops sshd, puts every path of
# the map back in service and removes the map (which fails if something still holds it).
# Exit status: 0 served and cleaned up; 1 set-up failed; 3 timed out without "done".
set -u
OUT=${KLAB_OUT:?not inside the lab VM}
DIR=$OUT/sshd TIMEOUT=420
while [ $# -gt 0 ]; do
    case "$1" in
        -d) DIR=$2; shift 2 ;;
        -t) TIMEOUT=$2; shift 2 ;;
        *) echo "usage: serve-sshd.sh [-d DIR] [-t SECONDS]" >&2; exit 2 ;;
    esac
done
log() { echo "serve-sshd: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root inside the lab VM"
[ -x /usr/sbin/sshd ] || die "/usr/sbin/sshd not installed on the host (packaging/install-deps.sh)"
{ [ -f "$DIR/host_key" ] && [ -f "$DIR/authorized_keys" ]; } || die "no host_key / authorized_keys in $DIR"
rm -f "$DIR/ready" "$DIR/done"

# shellcheck source=tests/vm/guest/setup-multipath.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup-multipath.sh" || die "setup-multipath.sh"
# The first I/O makes group 1 the active one (before it, both groups are "E").
dd if="$DMDEV" of=/dev/null bs=4096 count=16 iflag=direct status=none || die "read through $MAP"

mkdir -p /run/sshd && chmod 755 /run/sshd # privilege separation directory
# bash sources ~/.bashrc for every command ssh runs; the host root's may start slow things (pyenv init
# took 9 s per ssh command under TCG). The guest's copy (on the throw-away overlay) is emptied.
[ -f /root/.bashrc ] && echo "# emptied by serve-sshd.sh in the lab guest" > /root/.bashrc
cat > "$DIR/sshd_config" <<EOF
Port 22
ListenAddress 0.0.0.0
HostKey $DIR/host_key
AuthorizedKeysFile $DIR/authorized_keys
PidFile /run/sshd-lab.pid
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
UseDNS no
X11Forwarding no
AllowTcpForwarding no
PrintMotd no
SetEnv DM_DISABLE_UDEV=1
EOF
/usr/sbin/sshd -t -f "$DIR/sshd_config" || die "sshd -t: bad config"
/usr/sbin/sshd -D -e -f "$DIR/sshd_config" </dev/null >>"$DIR/sshd.log" 2>&1 &
SSHD=$!
for _ in $(seq 100); do
    grep -q "Server listening" "$DIR/sshd.log" 2>/dev/null && break
    kill -0 $SSHD 2>/dev/null || die "sshd ended: $(tail -3 "$DIR/sshd.log")"
    sleep 0.1
done
grep -q "Server listening" "$DIR/sshd.log" || die "sshd is not listening"
_dmtune_lab_vars > "$DIR/ready.tmp" && mv "$DIR/ready.tmp" "$DIR/ready"
log "sshd (pid $SSHD) on port 22, $MAP over $SD; waiting for $DIR/done (at most $TIMEOUT s)"

rc=0 end=$(($(date +%s) + TIMEOUT))
until [ -e "$DIR/done" ]; do
    [ "$(date +%s)" -ge $end ] && { log "no $DIR/done after $TIMEOUT s"; rc=3; break; }
    kill -0 $SSHD 2>/dev/null || { log "sshd ended early"; rc=1; break; }
    sleep 0.2
done

kill $SSHD 2>/dev/null
wait $SSHD 2>/dev/null
for d in $DA $DB $DC $DD; do
    dmsetup message "$MAP" 0 reinstate_path "$d" >/dev/null 2>&1
done
dmsetup remove "$MAP" || { log "ERROR: dmsetup remove $MAP: $(dmsetup info "$MAP" | grep -i open)"; rc=1; }
log "done (exit $rc)"
exit $rc
