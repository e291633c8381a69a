// SPDX-License-Identifier: GPL-2.0
// Shared by the BPF program and user space: the layout of one watched disk's histograms.
#ifndef DMTUNE_BLKLATENCY_SHARED_H
#define DMTUNE_BLKLATENCY_SHARED_H

#define BLKLAT_MAX_SLOTS 128
#define BLKLAT_BUCKETS 64

struct blklat_slot {
    __u64 device[BLKLAT_BUCKETS]; // issue -> complete
    __u64 queue[BLKLAT_BUCKETS]; // insert -> issue (requests that were inserted)
    __u64 device_ns; // sums, for exact means
    __u64 queue_ns;
    // Requests issued again (the tag's request reused) without their completion having reached the probe:
    // on some kernels a tracing program is, rarely, not run for an event (seen on 6.18, not on 6.1).
    __u64 lost;
};

#endif
