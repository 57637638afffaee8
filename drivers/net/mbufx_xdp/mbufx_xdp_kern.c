/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * XDP program of net_mbufx_xdp: frames of a queue that has an AF_XDP socket
 * go to it, everything else to the kernel stack. Frags-aware ("xdp.frags",
 * BPF_F_XDP_HAS_FRAGS): it never reads packet data, so multi-buffer frames
 * (MTU 9000) pass, and a veth peer's MTU is not capped at 3506.
 */

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, 64);	/* resized at load time */
	__type(key, __u32);
	__type(value, __u32);
} mbufx_xsks SEC(".maps");

SEC("xdp.frags")
int
mbufx_xdp_redirect(struct xdp_md *ctx)
{
	/* no socket in the slot: the lower bits of flags are the action */
	return bpf_redirect_map(&mbufx_xsks, ctx->rx_queue_index, XDP_PASS);
}

char _license[] SEC("license") = "Dual BSD/GPL";
