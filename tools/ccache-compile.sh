#!/bin/sh
# The compiler launcher (CMakeLists.txt, DMTUNE_CCACHE): runs "CCACHE COMPILER ARGS...". When the compile makes
# a precompiled header (-o X.gch), it also writes X.gch.sum, the .gch's SHA-256: with CCACHE_PCH_EXTSUM ccache
# hashes that line instead of the 140-250 MB .gch on every compile that uses it (0.8 s of a 0.9 s cache hit).
# The old .sum goes first, so a .gch without its own checksum is hashed whole, never matched by a stale one.
gch=
prev=
for arg in "$@"; do
    if [ "$prev" = -o ]; then
        case $arg in *.gch) gch=$arg ;; esac
    fi
    prev=$arg
done
[ -z "$gch" ] && exec "$@"
rm -f "$gch.sum"
"$@" || exit
sum=$(sha256sum < "$gch") || exit
printf '%s\n' "${sum%% *}" > "$gch.sum.tmp" && mv -f "$gch.sum.tmp" "$gch.sum"
