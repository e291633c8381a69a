# Sourced by the bench scripts: N loop devices over 1 MiB sparse files in a temporary directory under /var/tmp,
# removed when the script exits (detached, then deleted with LOOP_CTL_REMOVE unless they existed before: their
# /dev nodes go with them). Sets $work (the directory) and attach_loops N.
work=$(mktemp -d "/var/tmp/dmtune-$1.XXXXXX")
loops_before=$(ls /sys/block)
attached=()
remove_loops() {
    local dev name created=()
    for dev in "${attached[@]}"; do
        losetup -d "$dev" 2>/dev/null || true
        name=${dev#/dev/}
        grep -qx "$name" <<<"$loops_before" || created+=("${name#loop}")
    done
    # LOOP_CTL_REMOVE (0x4C81) deletes the device and, on devtmpfs, its node; EBUSY: someone else took it since.
    [ ${#created[@]} -eq 0 ] || python3 - "${created[@]}" <<'PY'
import fcntl, os, sys
fd = os.open("/dev/loop-control", os.O_RDWR)
for minor in sys.argv[1:]:
    try:
        fcntl.ioctl(fd, 0x4C81, int(minor))
    except OSError:
        pass
os.close(fd)
PY
    rm -rf "$work"
}
trap remove_loops EXIT
attach_loops() { # N
    local i
    for ((i = 0; i < $1; i++)); do
        truncate -s 1M "$work/$i.img"
        attached+=("$(losetup --find --show "$work/$i.img")")
    done
}
