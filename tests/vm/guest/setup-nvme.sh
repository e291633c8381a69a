#!/bin/bash
# Guest side: one NVMe namespace (a 64 MiB brd RAM disk) exported by nvmet-tcp on two ports, 127.0.0.1:4421 and
# 127.0.0.2:4422, and connected through both: with nvme_core multipath=Y one head nvmeXnY over two hidden paths
# nvmeXcZnY (native multipath), with multipath=N two namespaces with the same WWID (a dm-multipath map's paths).
# Usage: setup-nvme.sh Y|N [ENVFILE]   ENVFILE gets NQN, HOSTNQN, CFG (nvmet's configfs dir) and the block devices.
# ANA: every port's group 1 starts optimized; set one with
#   echo inaccessible > $CFG/ports/2/ana_groups/1/ana_state
set -euo pipefail
multipath=${1:?usage: setup-nvme.sh Y|N [ENVFILE]}
envfile=${2:-/dev/null}
modprobe nvme_core multipath="$multipath"
[ "$(cat /sys/module/nvme_core/parameters/multipath)" = "$multipath" ] ||
    { echo "setup-nvme: nvme_core was loaded already with multipath=$(cat /sys/module/nvme_core/parameters/multipath)" >&2; exit 1; }
modprobe nvmet
modprobe nvmet-tcp
modprobe nvme-tcp
modprobe brd rd_nr=1 rd_size=65536
[ -d /sys/kernel/config/nvmet ] || mount -t configfs configfs /sys/kernel/config
CFG=/sys/kernel/config/nvmet
NQN=nqn.2026-12.org.dmtune.lab:nvme-mpath
mkdir "$CFG/subsystems/$NQN"
echo 1 >"$CFG/subsystems/$NQN/attr_allow_any_host"
echo DMTUNELAB0001 >"$CFG/subsystems/$NQN/attr_serial" 2>/dev/null || true
mkdir "$CFG/subsystems/$NQN/namespaces/1"
echo /dev/ram0 >"$CFG/subsystems/$NQN/namespaces/1/device_path"
echo 1 >"$CFG/subsystems/$NQN/namespaces/1/enable"
for p in 1 2; do
    mkdir "$CFG/ports/$p"
    echo tcp >"$CFG/ports/$p/addr_trtype"
    echo ipv4 >"$CFG/ports/$p/addr_adrfam"
    echo "127.0.0.$p" >"$CFG/ports/$p/addr_traddr"
    echo "442$p" >"$CFG/ports/$p/addr_trsvcid"
    ln -s "$CFG/subsystems/$NQN" "$CFG/ports/$p/subsystems/$NQN"
done
HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:$(cat /proc/sys/kernel/random/uuid)
for p in 1 2; do
    echo "transport=tcp,traddr=127.0.0.$p,trsvcid=442$p,nqn=$NQN,hostnqn=$HOSTNQN" >/dev/nvme-fabrics
done
# The namespaces appear asynchronously after the connect (scan work).
for _ in $(seq 50); do
    n=$(ls -d /sys/block/nvme* 2>/dev/null | wc -l)
    want=2
    [ "$multipath" = Y ] && want=3 # the head and two hidden paths
    [ "$n" -ge "$want" ] && break
    sleep 0.1
done
{
    echo "NQN=$NQN"
    echo "HOSTNQN=$HOSTNQN"
    echo "CFG=$CFG"
    echo "NVME_BLOCK=\"$(cd /sys/block && ls -d nvme* | tr '\n' ' ')\""
} >"$envfile"
echo "setup-nvme: multipath=$multipath, block devices: $(cd /sys/block && ls -d nvme* | tr '\n' ' ')"
