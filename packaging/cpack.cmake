# Debian package (cpack -G DEB) with the runtime dependencies of Debian 12.
set(CPACK_PACKAGE_NAME dmtune)
set(CPACK_PACKAGE_VENDOR "dmtune developers")
set(CPACK_PACKAGE_CONTACT "dmtune developers <dmtune@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "watch and tune dm-multipath maps and block queues live")
set(CPACK_PACKAGE_DESCRIPTION "dmtune shows every block device, each dm-multipath map with its path groups and paths,
and every queue parameter; plots iostat metrics of a map and its paths side by side; applies
parameter changes as transactions. dmtunectl is its command-line twin (JSON output).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libqt6core6 (>= 6.4), libqt6gui6 (>= 6.4), libqt6widgets6 (>= 6.4), libqt6printsupport6 (>= 6.4), libqt6svg6 (>= 6.4), libqcustomplot2.1-qt6, libudev1, libdevmapper1.02.1, libblkid1, pkexec | policykit-1")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fio, sysstat, multipath-tools")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_GENERATOR DEB)
include(CPack)
