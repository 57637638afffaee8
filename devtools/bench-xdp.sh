#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# AF_XDP benchmark of `make bench`: net_mbufx_xdp against DPDK's net_af_xdp
# on one veth pair and the same traffic, each with the mbufx pool and with
# testpmd's default ring pool; 64 B and 1518 B frames, 64 B over two queues
# (queue_count=2), then 9000 B on ours.
#
#     devtools/bench-xdp.sh BUILD
#     devtools/bench-xdp.sh BUILD ab [REF_BUILD]
#
# ab: the refill A/B on net_mbufx_xdp alone: rx_refill=late (late metadata
# attach) against rx_refill=classic (net_af_xdp's refill) on the same veth
# pair and traffic, 64 B, 4096-descriptor rings, interleaved, medians of the
# forwarding core's cycles per packet, the PMD's own cycles per packet (less
# the cycles inside its sendto()/recvfrom() in those iterations: xstats
# tx_kick_cycles and kin; in copy mode the kernel copies each transmitted
# frame inside the kick), header lines written per packet, and the receive
# loop's and the io path's instructions per packet under callgrind, and the
# io path's cycles per packet in both modes over a simulated zero-copy NIC
# (mbufx-xdp-zc-bench: the fake kernel, no syscall, full bursts); REF_BUILD
# adds another build's default mode (before/after). Writes xdp_ab.json.
#
#   host A netns                    router netns                  host B netns
#   testpmd txonly on       veth    testpmd io / rxonly     veth   kernel (drops:
#   net_af_packet (lcore 0) =====>  2 AF_XDP ports (lcore 1) ====>  not its MAC)
#
# MBUFX_BENCH_RT=1 runs the router under SCHED_FIFO (chrt -f 50): without it,
# on a shared machine testpmd charges every preemption of the forwarding
# loop to the next iteration that finds packets, and cycles per packet
# measure the load, not the driver. Interleaved repetitions
# (MBUFX_BENCH_REPS, default 3 here: every run sets
# up a topology), MBUFX_XDP_SECONDS (2) per window, medians; about three
# minutes. Writes $MBUFX_BENCH_OUT/xdp.json (default bench-results/), which
# bench-report.py turns into a section of RESULTS.md. Skips (exit 0 with a
# note, no JSON) where AF_XDP cannot run: no root capabilities, no veth.
# Everything made (namespaces, veths, EAL files) is removed on every exit
# path by the Python harness (devtools/xdpbench.py).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] && [ $# -le 3 ] || { echo "usage: $0 BUILD [ab [REF_BUILD]]"; exit 2; }
build=$(cd "$1" && pwd)
out=${MBUFX_BENCH_OUT:-$root/bench-results}
mkdir -p "$out"
out=$(cd "$out" && pwd)
reps=${MBUFX_BENCH_REPS:-3}
[ "$reps" -le 3 ] || reps=3
secs=${MBUFX_XDP_SECONDS:-2}

rc=0
if [ "${2:-}" = ab ]; then
    python3 "$root/devtools/xdpbench.py" ab "$build" "$out/xdp_ab.json" \
        --reps "${MBUFX_BENCH_REPS:-5}" --seconds "$secs" \
        ${3:+--ref "$(cd "$3" && pwd)"} || rc=$?
else
    python3 "$root/devtools/xdpbench.py" bench "$build" "$out/xdp.json" \
        --reps "$reps" --seconds "$secs" || rc=$?
fi
if [ $rc -eq 77 ]; then
    echo "bench-xdp: skipped (see above)"
    exit 0
fi
exit $rc
