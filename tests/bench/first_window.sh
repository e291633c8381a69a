#!/bin/bash
# How long the README's first command takes on a fresh Debian 12 machine: a clean clone to dmtune's first window,
# package installation included. Not a test (docs/development.md keeps the figures): makes a debootstrap minbase
# root (not timed), clones REPO into it, runs packaging/build-and-run.sh inside it against an Xvfb display of this
# machine and times it until a dmtune window is mapped; then clones again into another folder of the same root and
# times the second run (the packages are there, the compiler cache is warm). A screenshot of each first window is
# saved in OUT_DIR.
# usage: first_window.sh REPO OUT_DIR      (root; needs debootstrap, Xvfb, xwininfo, ImageMagick's import)
set -euo pipefail
repo=$(cd "${1:?usage: first_window.sh REPO OUT_DIR}" && pwd)
out=${2:?usage: first_window.sh REPO OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ "$(id -u)" = 0 ] || { echo "first_window: needs root (debootstrap, chroot, mounts)" >&2; exit 1; }
for tool in debootstrap Xvfb xwininfo import; do
    command -v "$tool" >/dev/null || { echo "first_window: $tool missing" >&2; exit 1; }
done

mirror=http://deb.debian.org/debian
work=$(mktemp -d /var/tmp/dmtune-firstwindow.XXXXXX)
root=$work/root
display=:$((90 + RANDOM % 9))
mounted=() xvfb=
cleanup() {
    local i
    [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" || true; done
    if findmnt -rn -o TARGET | grep -q "^$work"; then
        echo "first_window: mounts left under $work, not deleting it" >&2
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
bind() { mkdir -p "$root$2"; mount --bind "$1" "$root$2"; mounted+=("$root$2"); }

# The package test's pristine minbase root when it has made one (tests/package/package_test.sh), else debootstrap.
tarball=${DMTUNE_PKGROOT_CACHE:-/var/tmp/dmtune-pkgroot}/bookworm-minbase.tar
mkdir -p "$root"
if [ -f "$tarball" ]; then
    echo "first_window: the pristine minbase root $tarball (not timed)"
    tar -C "$root" -xf "$tarball"
else
    echo "first_window: debootstrap --variant=minbase bookworm (not timed)"
    debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
        { tail -20 "$work/debootstrap.log"; exit 1; }
fi
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"
mkdir -p "$root/proc" && mount -t proc proc "$root/proc" && mounted+=("$root/proc")
bind /sys /sys
bind /dev /dev
Xvfb "$display" -screen 0 1280x720x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb=$!
for _ in $(seq 100); do [ -S "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
bind /tmp/.X11-unix /tmp/.X11-unix

# run NAME FOLDER: clones the repository into FOLDER of the root and times build-and-run.sh to the first window.
run() {
    local name=$1 folder=$2 start took app
    git clone -q "$repo" "$root$folder"
    start=$(date +%s.%N)
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DISPLAY="$display" \
        bash "$folder/packaging/build-and-run.sh" >"$out/$name.log" 2>&1 &
    app=$!
    until xwininfo -display "$display" -root -tree 2>/dev/null | grep -qi '"dmtune'; do
        kill -0 "$app" 2>/dev/null || { tail -30 "$out/$name.log"; echo "first_window: $name ended without a window" >&2; return 1; }
        sleep 0.5
    done
    took=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", e - s }')
    sleep 3 # the window's first paint, for the screenshot only (the time is taken above)
    import -display "$display" -window root "$out/$name.png"
    kill "$app" 2>/dev/null || true # chroot, env and the script exec into dmtune: this is its pid
    wait "$app" 2>/dev/null || true
    printf 'first_window: %s: %dm%02ds to the first window\n' "$name" $((took / 60)) $((took % 60))
    grep -h '^ccache\|^build-and-run' "$out/$name.log" || true
}
run empty-cache /root/dmtune
run warm-cache /root/elsewhere/dmtune
