#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# Benchmark of the applications -> $MBUFX_BENCH_OUT/apps.json (bench "apps").
#
#     devtools/bench-apps.sh BUILD
#
# mbufx-l3fwd on mbufx pools against the same app on stock ring_mp_mc pools,
# A/B interleaved, MBUFX_BENCH_REPS (default 5) repetitions, medians:
#   - net_ring, no copy, one core (--bench-gen: a software NIC posts buffers,
#     late attach on mbufx pools, classic refill on stock ones): 64, 1518 and
#     9000 B; targets >= 1.0x at 64 B, >= 1.3x at 9000 B;
#   - encapsulation (VLAN, MPLS, GRE) in place with mbufx_prepend against
#     always chaining a header mbuf (--encap-chain); target >= 1.25x;
#   - vhost-user, a copying port, with dpdk-testpmd as the generator in
#     another process: 64, 1518 and 9000 B;
#   - instructions per packet of the net_ring loop under callgrind.
# Then devtools/sidebench.py -> $MBUFX_BENCH_OUT/l3fwd.json (bench "l3fwd"):
# mbufx-l3fwd side by side with DPDK's own l3fwd example (built from the
# dpdk-doc sources by devtools/stock-l3fwd.sh) and that l3fwd on our driver,
# on the same vhost-user ports, 64 B, IMIX, 1518 B and 9000 B, with each
# process's CPU share per sample (MBUFX_BENCH_SIDE_REPS rounds of turns, default 6).
# Pool sizes are fixed and written into the JSON. Never pass/fail on timing.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 BUILD"; exit 2; }
build=$(cd "$1" && pwd)
out=${MBUFX_BENCH_OUT:-$root/bench-results}
mkdir -p "$out"
rc=0
python3 "$root/devtools/fwdbench.py" bench "$build" --out "$out/apps.json" \
    --reps "${MBUFX_BENCH_REPS:-5}" || rc=1
# MBUFX_BENCH_SIDE=0 leaves out the turns against DPDK's l3fwd (bench-distros)
if [ "${MBUFX_BENCH_SIDE:-1}" != 0 ]; then
    python3 "$root/devtools/sidebench.py" "$build" --out "$out/l3fwd.json" \
        --reps "${MBUFX_BENCH_SIDE_REPS:-6}" || rc=1
fi
exit $rc
