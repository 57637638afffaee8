#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# `make demo`: real traffic through mbufx-l3fwd, mbufx pools against stock
# ring pools, in about two minutes on two cores.
#
#     devtools/demo.sh BUILD
#
#   generator (one process, one core)        mbufx-l3fwd (another process)
#   dpdk-testpmd, mbufx pool                 +--------------------------+
#   net_pcap replay --> virtio-user 0 ======>| vhost-user 0   route     |
#                                            |   198.18.1.0/24 -> 1     |
#   counts frames  <-- virtio-user 1 <======| vhost-user 1             |
#                                            +--------------------------+
#   (vhost copies every frame between the two processes, like NIC DMA)
#
# Three sizes: 64 B, IMIX (7:4:1 of 64/594/1518 B) and 9000 B. Per size the
# router on mbufx pools and the router on stock ring_mp_mc pools (stock jumbo
# frames scattered over 2K mbufs, mbufx jumbo frames in one segment), each
# with its own generator and vhost pair, are started once and take turns on
# the two cores (the other pair SIGSTOPped; devtools/turns.py, the
# machinery of `make bench`): DEMO_ROUNDS (default 3) rounds of turns of
# DEMO_SECONDS (default 5), the order alternating, one live sample a second
# with both processes' CPU shares. Then a table of the medians of the clean
# samples (both processes had a full CPU) with their counts, and the ratio,
# or, when the machine was too busy for a fair comparison, why. The mbufx
# pairs stop the generator first, the stock pairs the forwarder first: both
# sides ignore SIGPIPE and exit cleanly. Then an AF_XDP part (below, about
# 15 s): a Linux namespace's traffic routed by mbufx-l3fwd over two
# net_mbufx_xdp ports.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 BUILD"; exit 2; }
build=$1

# packages and hugepages (quick when already there); vhost-user needs shared
# hugepage memory on both sides
MBUFX_HUGEPAGES=${MBUFX_HUGEPAGES:-1024} "$root/devtools/setup.sh"
if [ ! -x "$build/app/l3fwd-mbufx/mbufx-l3fwd" ]; then
    [ -f "$build/build.ninja" ] || meson setup "$build"
    ninja -C "$build"
fi
build=$(cd "$build" && pwd)
cd "$root"
python3 "$root/devtools/fwdbench.py" demo "$build" --reps "${DEMO_ROUNDS:-3}" \
    --seconds "${DEMO_SECONDS:-5}"

# Part 2, AF_XDP: a Linux network namespace (host A) pings host B in
# another namespace through mbufx-l3fwd on two net_mbufx_xdp ports (a third
# namespace, veth pairs): 56, 1472 and 8972-byte pings (9000-byte frames,
# received as multi-buffer chains), live stats, then the summary and the
# leak audit. DEMO_XDP_SECONDS (default 10) bounds it; skipped with the
# reason where AF_XDP cannot run (not root, no veth) or the PMD is not built.
echo
echo "=== demo part 2: routing a Linux namespace's traffic over AF_XDP"
rc=0
python3 "$root/devtools/xdpbench.py" demo "$build" --seconds "${DEMO_XDP_SECONDS:-10}" || rc=$?
[ $rc -eq 77 ] && rc=0
exit $rc
