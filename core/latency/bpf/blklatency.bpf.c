// SPDX-License-Identifier: GPL-2.0
// Block-layer latency per watched disk: a histogram of device time (issue -> complete) and one of queue
// time (insert -> issue), counted only for requests /proc/diskstats counts (no passthrough commands, such
// as multipathd's TUR checker, and only a request's final completion). CO-RE: the few kernel fields read
// are declared here with preserve_access_index, so the object needs no vmlinux.h from the build machine.
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "blklatency_shared.h"

struct gendisk {
    int major;
    int first_minor;
} __attribute__((preserve_access_index));

struct request_queue {
    struct gendisk *disk;
} __attribute__((preserve_access_index));

struct request {
    struct request_queue *q;
    unsigned int cmd_flags;
    unsigned int __data_len;
} __attribute__((preserve_access_index));

// Kernels before 5.16 name the disk on the request, not on its queue.
struct request___old {
    struct gendisk *rq_disk;
} __attribute__((preserve_access_index));

char LICENSE[] SEC("license") = "GPL";

// Kernel dev_t (major << 20 | minor) -> slot in hists; written by user space.
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, BLKLAT_MAX_SLOTS);
    __type(key, __u32);
    __type(value, __u32);
} watched SEC(".maps");

struct pending_request {
    __u64 insert_ns;
    __u64 issue_ns;
    __u32 slot;
    __u32 pad;
};

// Requests between insert/issue and completion. LRU: a completion the program never sees (a request freed
// on an error path) must not fill the map for good.
struct {
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, 65536);
    __type(key, __u64);
    __type(value, struct pending_request);
} pending SEC(".maps");

// Read by user space through the skeleton's memory map of .bss: no system call per tick.
struct blklat_slot hists[BLKLAT_MAX_SLOTS];

static __always_inline int watched_slot(struct request *rq, __u32 *slot)
{
    struct gendisk *disk = 0;
    if (bpf_core_field_exists(rq->q->disk))
        disk = BPF_CORE_READ(rq, q, disk);
    else
        disk = BPF_CORE_READ((struct request___old *)rq, rq_disk);
    if (!disk)
        return 0;
    __u32 dev = ((__u32)BPF_CORE_READ(disk, major) << 20) | (__u32)BPF_CORE_READ(disk, first_minor);
    __u32 *found = bpf_map_lookup_elem(&watched, &dev);
    if (!found || *found >= BLKLAT_MAX_SLOTS)
        return 0;
    *slot = *found;
    return 1;
}

static __always_inline int counted_request(struct request *rq)
{
    // REQ_OP_DRV_IN / REQ_OP_DRV_OUT (34, 35): passthrough, never in /proc/diskstats.
    return (BPF_CORE_READ(rq, cmd_flags) & 0xff) < 34;
}

// Bucket i >= 1 holds [lower(i), lower(i + 1)) with lower = 1, 1.5, 2, 3, 4, 6, 8, 12 ... microseconds:
// two buckets per octave. Counted in half microseconds so that every bound is a whole number.
static __always_inline __u32 bucket_of(__u64 ns)
{
    __u64 v = ns / 500;
    if (v < 2)
        return 0;
    __u32 k = 0;
    __u64 x = v;
    if (x >> 32) { x >>= 32; k += 32; }
    if (x >> 16) { x >>= 16; k += 16; }
    if (x >> 8) { x >>= 8; k += 8; }
    if (x >> 4) { x >>= 4; k += 4; }
    if (x >> 2) { x >>= 2; k += 2; }
    if (x >> 1) { k += 1; }
    __u32 half = (__u32)((v >> (k - 1)) & 1);
    __u32 i = 2 * (k - 1) + 1 + half;
    if (i >= BLKLAT_BUCKETS)
        i = BLKLAT_BUCKETS - 1;
    // The verifier must see the bound on the index itself; the compiler would fold a plain mask away.
    barrier_var(i);
    return i & (BLKLAT_BUCKETS - 1);
}

SEC("tp_btf/block_rq_insert")
int BPF_PROG(blklat_insert, struct request *rq)
{
    __u32 slot;
    if (!watched_slot(rq, &slot) || !counted_request(rq))
        return 0;
    __u64 key = (__u64)rq;
    struct pending_request p = { .insert_ns = bpf_ktime_get_ns(), .slot = slot };
    bpf_map_update_elem(&pending, &key, &p, BPF_ANY);
    return 0;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(blklat_issue, struct request *rq)
{
    __u32 slot;
    if (!watched_slot(rq, &slot) || !counted_request(rq))
        return 0;
    __u64 key = (__u64)rq;
    __u64 now = bpf_ktime_get_ns();
    struct pending_request *p = bpf_map_lookup_elem(&pending, &key);
    if (p && p->slot == slot && p->issue_ns == 0) {
        p->issue_ns = now;
        return 0;
    }
    // Issued before and never seen completing (a requeue would have removed it): that I/O is lost to us.
    if (p && p->issue_ns != 0) {
        __u32 stale = p->slot;
        barrier_var(stale);
        __sync_fetch_and_add(&hists[stale & (BLKLAT_MAX_SLOTS - 1)].lost, 1);
    }
    // Issued without an insert (a direct issue), or issued again after a requeue: device time restarts.
    struct pending_request fresh = { .issue_ns = now, .slot = slot };
    bpf_map_update_elem(&pending, &key, &fresh, BPF_ANY);
    return 0;
}

SEC("tp_btf/block_rq_requeue")
int BPF_PROG(blklat_requeue, struct request *rq)
{
    __u64 key = (__u64)rq;
    bpf_map_delete_elem(&pending, &key);
    return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(blklat_complete, struct request *rq, int error, unsigned int nr_bytes)
{
    // A partial completion: the request goes on.
    if (nr_bytes < BPF_CORE_READ(rq, __data_len))
        return 0;
    __u64 key = (__u64)rq;
    struct pending_request *p = bpf_map_lookup_elem(&pending, &key);
    if (!p)
        return 0;
    __u64 now = bpf_ktime_get_ns();
    __u32 slot = p->slot;
    __u64 issue = p->issue_ns;
    __u64 insert = p->insert_ns;
    bpf_map_delete_elem(&pending, &key);
    if (slot >= BLKLAT_MAX_SLOTS || issue == 0 || now < issue)
        return 0;
    struct blklat_slot *h = &hists[slot];
    __sync_fetch_and_add(&h->device[bucket_of(now - issue)], 1);
    __sync_fetch_and_add(&h->device_ns, now - issue);
    if (insert != 0 && insert <= issue) {
        __sync_fetch_and_add(&h->queue[bucket_of(issue - insert)], 1);
        __sync_fetch_and_add(&h->queue_ns, issue - insert);
    }
    return 0;
}
