# Debian package (cpack -G DEB) for Debian 12.
# lintian-clean of errors: stripped binaries, gzipped man pages and changelog, copyright file,
# section/priority/maintainer, library dependencies computed by dpkg-shlibdeps (so libc6,
# libstdc++6 and the exact Qt libraries are there) plus what is loaded at run time.
set(CPACK_PACKAGE_NAME dmtune)
set(CPACK_PACKAGE_VENDOR "dmtune developers")
set(CPACK_PACKAGE_CONTACT "dmtune developers <dmtune@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "watch and tune dm-multipath maps and block queues live")
# Debian wraps the extended description at 80 columns: one short line per sentence part.
set(CPACK_PACKAGE_DESCRIPTION "dmtune shows every block device, each dm-multipath map with its
path groups and paths, and every queue parameter. It plots iostat
metrics of a map and its paths side by side, applies parameter changes
as transactions that roll back on failure, and runs fio workloads on a
lab device. dmtunectl is its command-line twin (JSON output).")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://example.org/dmtune")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# The programs have their libexec paths built in from CMAKE_INSTALL_PREFIX: a package made here
# from another prefix would name files it does not hold.
if(NOT CMAKE_INSTALL_PREFIX STREQUAL "/usr")
    message(WARNING "CMAKE_INSTALL_PREFIX is ${CMAKE_INSTALL_PREFIX}: a package built here would look for "
                    "${CMAKE_INSTALL_PREFIX}/libexec/dmtune; configure with -DCMAKE_INSTALL_PREFIX=/usr to package")
endif()
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# dpkg-shlibdeps finds what the binaries link (Qt 6 Core/Gui/Widgets/Svg, libqcustomplot2.1-qt6,
# libudev1, libdevmapper1.02.1, libc6, libstdc++6); this adds what is loaded, not linked: Qt Svg's
# image and icon-engine plugins for the icon (the QPA plugins are in libqt6gui6).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6svg6 (>= 6.4)")
# fio runs workloads, sysstat's iostat is the reference for the statistics; pkexec lets a normal
# user tune (as root nothing else is needed); multipathd is used when it runs.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fio, sysstat, pkexec")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "multipath-tools")

# RPM (cpack -G RPM, with rpmbuild from Debian's rpm package): requirements found by rpmbuild from
# the binaries; the same files. Not tested on an RPM distribution.
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_LICENSE "GPL-2.0-or-later")
set(CPACK_RPM_PACKAGE_GROUP "Applications/System")
set(CPACK_RPM_PACKAGE_URL "${CPACK_PACKAGE_HOMEPAGE_URL}")
set(CPACK_RPM_PACKAGE_SUGGESTS "fio, sysstat")
# Directories the system owns: the package must not claim them.
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
    /usr/libexec /usr/share/applications /usr/share/icons /usr/share/icons/hicolor /usr/share/metainfo
    /usr/share/polkit-1 /usr/share/polkit-1/actions /usr/share/man /usr/share/man/man1 /usr/share/doc)
foreach(size 16x16 22x22 24x24 32x32 48x48 64x64 128x128 256x256 scalable)
    list(APPEND CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
        /usr/share/icons/hicolor/${size} /usr/share/icons/hicolor/${size}/apps)
endforeach()

set(CPACK_GENERATOR DEB)
include(CPack)
