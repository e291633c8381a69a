#pragma once
// The GUI tests' standard machine, built on a FakeSysfs.
namespace dmtune::test {

class FakeSysfs;

// Multipath map mpatha (dm-0, mpath-3600a0980...) over SCSI paths sdak, sdu, sdm, sdac (NETAPP, 100 GiB,
// mq-deadline with its three tunables); a virtio disk vda with partition vda1 under an LVM volume dm-1;
// loop0 over a file; zram0 without queue files.
void buildStandardMachine(FakeSysfs &t);

} // namespace dmtune::test
