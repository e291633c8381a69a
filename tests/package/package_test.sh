#!/bin/bash
# The package test: build the .deb with cpack, check it with lintian (no E: tags), install it with
# apt into a clean Debian 12 root (debootstrap minbase, dependencies from the mirror), run
# dmtunectl and the GUI (offscreen) inside that root, purge it (and the dependencies it pulled in)
# and check that the root's file list is what it was before the install.
#
# usage: package_test.sh SOURCE_DIR BUILD_DIR
# Needs root, debootstrap and lintian (packaging/install-deps.sh --lab). The pristine root is cached
# as a tarball under $DMTUNE_PKGROOT_CACHE (default /var/tmp/dmtune-pkgroot, refreshed after 7 days)
# with apt's lists and the downloaded .debs beside it, so only the first run needs the mirror.
# Exit: 0 pass, 1 fail, 77 skipped (not root, or a tool missing).
set -euo pipefail

src=$(cd "${1:?usage: package_test.sh SOURCE_DIR BUILD_DIR}" && pwd)
build=$(cd "${2:?usage: package_test.sh SOURCE_DIR BUILD_DIR}" && pwd)
cache=${DMTUNE_PKGROOT_CACHE:-/var/tmp/dmtune-pkgroot}
suite=bookworm
t0=$(date +%s.%N)

say() { awk -v t0="$t0" -v now="$(date +%s.%N)" -v msg="$*" 'BEGIN { printf "[%6.1fs] %s\n", now - t0, msg }'; }
die() { echo "FAIL: $*" >&2; exit 1; }

if [ "$(id -u)" != 0 ]; then echo "SKIP: needs root (chroot, mounts)"; exit 77; fi
for tool in debootstrap lintian cpack dpkg-deb strings; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool missing (packaging/install-deps.sh --lab)"; exit 77; }
done
# The programs name their libexec files by the build's prefix; the package installs into /usr.
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
if [ "$prefix" != /usr ]; then
    echo "SKIP: $build is configured with CMAKE_INSTALL_PREFIX=$prefix; a package needs /usr (the presets set it)"
    exit 77
fi

# The mirror apt uses on this machine (deb822 .sources or one-line .list), else Debian's CDN.
apt_uris() {
    { grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{for (i = 2; i <= NF; i++) print $i}'
      grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
          sed -E 's/\[[^]]*\]//' | awk '{print $2}'; } | sed 's:/*$::'
}
mirror=$(apt_uris | grep -E '/debian$' | head -n1 || true)
security=$(apt_uris | grep -E '/debian-security$' | head -n1 || true)
mirror=${mirror:-http://deb.debian.org/debian}
security=${security:-http://deb.debian.org/debian-security}

work=$(mktemp -d /var/tmp/dmtune-pkgtest.XXXXXX)
root=$work/root
mounted=()
cleanup() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" || true; done
    # Never delete through a mount (the root has the host's /dev bound into it).
    if findmnt -rn -o TARGET | grep -q "^$work"; then
        echo "cleanup: mounts left under $work, not deleting it" >&2
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
mount_in_root() { # TYPE|--bind SOURCE TARGET-INSIDE-ROOT
    mkdir -p "$root$3"
    if [ "$1" = --bind ]; then mount --bind "$2" "$root$3"; else mount -t "$1" "$2" "$root$3"; fi
    mounted+=("$root$3")
}
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"; }

# 1. The package.
say "cpack -G DEB in $build"
(cd "$build" && cpack -G DEB -B "$work/deb" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; die "cpack failed"; }
deb=$(ls "$work"/deb/dmtune_*.deb)
contents=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's:^\./:/:')
for f in /usr/bin/dmtune /usr/bin/dmtunectl /usr/libexec/dmtune/dmtune-helper /usr/libexec/dmtune/dmtune-report \
    /usr/share/polkit-1/actions/org.dmtune.helper.policy /usr/share/applications/org.dmtune.dmtune.desktop \
    /usr/share/metainfo/org.dmtune.dmtune.metainfo.xml /usr/share/icons/hicolor/scalable/apps/dmtune.svg \
    /usr/share/icons/hicolor/16x16/apps/dmtune.png /usr/share/icons/hicolor/256x256/apps/dmtune.png \
    /usr/share/man/man1/dmtune.1.gz /usr/share/man/man1/dmtunectl.1.gz \
    /usr/share/doc/dmtune/copyright /usr/share/doc/dmtune/changelog.gz /usr/share/dmtune/translations/dmtune_de.qm; do
    grep -qx "$f" <<<"$contents" || die "the package lacks $f"
done
# Every /…/libexec/dmtune/… path the programs have built in is a file of the package (the helper
# that pkexec runs, the report drawer).
dpkg-deb -x "$deb" "$work/unpacked"
for program in usr/bin/dmtune usr/bin/dmtunectl; do
    # QStringLiteral keeps them as UTF-16: read both encodings.
    named=$({ strings -a "$work/unpacked/$program"; strings -a -e l "$work/unpacked/$program"; } |
        grep -oE '/[a-z/]*/libexec/dmtune/[a-z-]+' | sort -u)
    [ -n "$named" ] || die "$program names no libexec path"
    for path in $named; do
        grep -qx "$path" <<<"$contents" || die "$program runs $path, which the package does not hold"
    done
    say "$program runs $(echo $named) (in the package)"
done
# Built-in presets and workload templates: every file of the source tree is in the package.
for kind in presets workloads; do
    for f in "$src"/resources/"$kind"/*.json; do
        [ -e "$f" ] || continue
        grep -qx "/usr/share/dmtune/$kind/$(basename "$f")" <<<"$contents" ||
            die "the package lacks /usr/share/dmtune/$kind/$(basename "$f")"
    done
done
say "package: $(basename "$deb"), $(stat -c %s "$deb") bytes, $(wc -l <<<"$contents") entries"

# The RPM (rpmbuild from Debian's rpm package) holds the same files.
if command -v rpmbuild >/dev/null; then
    (cd "$build" && cpack -G RPM -B "$work/rpm" >"$work/cpack-rpm.log" 2>&1) || { cat "$work/cpack-rpm.log"; die "cpack -G RPM failed"; }
    rpm_files=$(rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$work"/rpm/dmtune-*.rpm |
        awk '$1 !~ /^[dl]/ { print $2 }' | sort)
    deb_files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | sed 's:^\./:/:' | sort)
    diff <(echo "$deb_files") <(echo "$rpm_files") || die "the RPM's files differ from the DEB's"
    say "rpm: $(basename "$work"/rpm/dmtune-*.rpm), the same $(wc -l <<<"$deb_files") files"
fi

say "lintian"
lintian_rc=0
lintian --fail-on error --display-level '>=warning' "$deb" >"$work/lintian.log" 2>&1 || lintian_rc=$?
grep -v 'running with root privileges' "$work/lintian.log" || true
[ "$lintian_rc" = 0 ] && ! grep -q '^E: ' "$work/lintian.log" || die "lintian reports errors (exit $lintian_rc)"

# 2. The pristine root: debootstrap once, then a tarball.
mkdir -p "$cache/archives/partial"
# One run at a time uses the cache (the tarball, apt's archive lock).
exec 9>"$cache/lock"
flock 9
tarball=$cache/$suite-minbase.tar
if [ -f "$tarball" ] && [ -z "$(find "$tarball" -mtime +7)" ]; then
    say "pristine root from cache $tarball"
else
    say "debootstrap --variant=minbase $suite from $mirror (first run: needs the mirror)"
    fresh=$work/fresh
    debootstrap --variant=minbase "$suite" "$fresh" "$mirror" >"$work/debootstrap.log" 2>&1 ||
        { tail -20 "$work/debootstrap.log"; die "debootstrap failed"; }
    cat >"$fresh/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
EOF
    chroot "$fresh" apt-get update -qq >"$work/apt-update.log" 2>&1 || { cat "$work/apt-update.log"; die "apt-get update in the root failed"; }
    chroot "$fresh" apt-get clean
    tar -C "$fresh" -cf "$tarball.tmp" . && mv -f "$tarball.tmp" "$tarball"
    rm -rf "$fresh"
fi
mkdir -p "$root"
tar -C "$root" -xf "$tarball"
# This machine's resolver (the cached root may come from another network).
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# No service starts inside the root.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"
cp "$deb" "$root/tmp/"
mount_in_root proc proc /proc
mount_in_root sysfs sysfs /sys
mount_in_root --bind /dev /dev
mount_in_root --bind "$cache/archives" /var/cache/apt/archives

# What the comparison leaves out: apt's and dpkg's own state, caches and logs, the scratch dirs.
file_list() {
    (cd "$root" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./tmp -o -path ./run \
        -o -path ./var/cache/apt -o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./var/log \
        -o -path ./var/cache/debconf -o -path ./var/cache/ldconfig -o -path ./etc/ld.so.cache \) -prune -o -print | sort)
}
file_list >"$work/before.txt"

# 3. Install with the dependencies from the mirror (Recommends left out: fio, sysstat, pkexec).
say "apt-get install ./$(basename "$deb")"
install_deb() { in_root apt-get install -y -q --no-install-recommends "/tmp/$(basename "$deb")" >"$work/install.log" 2>&1; }
if ! install_deb; then
    say "install failed; refreshing apt's lists and retrying"
    in_root apt-get update -qq >/dev/null 2>&1 || true
    install_deb || { tail -30 "$work/install.log"; die "apt-get install of the package failed"; }
fi
say "installed ($(grep -c '^Setting up' "$work/install.log") packages set up)"

# 4. Run it.
version=$(in_root dmtunectl --version) || die "dmtunectl --version failed"
say "dmtunectl --version: $version"
expected_version=$(dpkg-deb -f "$deb" Version)
grep -q "^dmtunectl $expected_version" <<<"$version" || die "dmtunectl --version does not say $expected_version"

# Recommends are not installed: fio's absence is reported, not fatal.
in_root dmtunectl version --json >"$work/version.json" || die "dmtunectl version --json failed"
grep -q '"libdevmapper"' "$work/version.json" && grep -q 'fio is not installed' "$work/version.json" ||
    { cat "$work/version.json"; die "dmtunectl version --json does not list libdevmapper, or misses fio's absence"; }
say "dmtunectl version --json: libdevmapper $(grep -A2 '"libdevmapper"' "$work/version.json" | sed -n 's/.*"version": "\(.*\)".*/\1/p')"

in_root dmtunectl list --json >"$work/list.json" || die "dmtunectl list --json failed"
# The same kernel and sysfs as the host: every host block device is in the list.
for dev in /sys/block/*; do
    grep -q "\"name\": \"$(basename "$dev")\"" "$work/list.json" || die "dmtunectl list --json misses $(basename "$dev")"
done
if command -v python3 >/dev/null; then python3 -m json.tool "$work/list.json" >/dev/null || die "list --json is not JSON"; fi
say "dmtunectl list --json: $(ls /sys/block | wc -l) devices, as on the host"

# report runs /usr/libexec/dmtune/dmtune-report (it draws; dmtunectl links no GUI library).
in_root dmtunectl report --help >"$work/report-help.log" 2>&1 && grep -q -- '--out' "$work/report-help.log" ||
    { cat "$work/report-help.log"; die "dmtunectl report does not reach the installed dmtune-report"; }

# No display in the root: --version still answers, a start says why it cannot.
gui_version=$(in_root dmtune --version 2>&1) || die "dmtune --version without a display failed: $gui_version"
grep -q "^dmtune $expected_version" <<<"$gui_version" || die "dmtune --version printed: $gui_version"
# The installed translation is found from /usr/bin (../share/dmtune/translations) and used for the locale.
in_root env LANG=de_DE.UTF-8 dmtune --help >"$work/help-de.log" 2>&1 || { cat "$work/help-de.log"; die "dmtune --help under LANG=de_DE.UTF-8 failed"; }
grep -q -- '--screenshot' "$work/help-de.log" && ! grep -q 'Save a picture of the window' "$work/help-de.log" ||
    { cat "$work/help-de.log"; die "dmtune --help under LANG=de_DE.UTF-8 is not German: the installed dmtune_de.qm was not loaded"; }
say "dmtune --help under LANG=de_DE.UTF-8: $(grep -- '--screenshot' "$work/help-de.log" | sed 's/  */ /g')"
in_root dmtune >"$work/nodisplay.log" 2>&1 && die "dmtune started without a display"
grep -q 'no display' "$work/nodisplay.log" || { cat "$work/nodisplay.log"; die "dmtune without a display does not say why"; }

in_root sh -c 'mkdir -p /tmp/home && HOME=/tmp/home XDG_RUNTIME_DIR=/tmp/home QT_QPA_PLATFORM=offscreen \
    timeout 60 dmtune --screenshot /tmp/s.png --size 1000x700' >"$work/gui.log" 2>&1 || { cat "$work/gui.log"; die "dmtune --screenshot failed"; }
png=$root/tmp/s.png
[ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || die "the screenshot is not a PNG"
wh=$(od -An -tu1 -j16 -N8 "$png" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4 "x" $5*16777216 + $6*65536 + $7*256 + $8}')
# At least the size asked for (a larger one: the window's minimum size won; said, not failed).
w=${wh%x*} h=${wh#*x}
[ "$w" -ge 1000 ] && [ "$h" -ge 700 ] || die "the screenshot is $wh, smaller than the 1000x700 asked for"
[ "$wh" = 1000x700 ] || echo "note: the window is $wh: its minimum size is larger than the 1000x700 asked for"
if command -v identify >/dev/null; then
    colors=$(identify -format %k "$png")
    [ "$colors" -gt 16 ] || die "the screenshot has $colors colours: an empty window?"
fi
cp "$png" "$build/package-test-screenshot.png"
say "dmtune --screenshot: PNG $wh (copied to $build/package-test-screenshot.png)"
owned=$(in_root dpkg-query -L dmtune)

# 5. Remove it, and what it pulled in; nothing may be left.
say "apt-get purge dmtune && apt-get autoremove --purge"
in_root apt-get purge -y -q dmtune >"$work/purge.log" 2>&1 || { cat "$work/purge.log"; die "purge failed"; }
in_root apt-get autoremove --purge -y -q >>"$work/purge.log" 2>&1 || { cat "$work/purge.log"; die "autoremove failed"; }
while read -r f; do
    [ -z "$f" ] || [ -d "$root$f" ] || [ ! -e "$root$f" ] || die "$f is still there after the purge"
done <<<"$owned"
file_list >"$work/after.txt"
if ! diff -u "$work/before.txt" "$work/after.txt" >"$work/left.diff"; then
    cat "$work/left.diff"
    die "the root differs after purge (lines with + are left behind, - are missing)"
fi
say "PASS: nothing left behind ($(wc -l <"$work/before.txt") paths compared)"
