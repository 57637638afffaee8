#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# Build DPDK's own l3fwd example (the installed dpdk-doc sources, never
# copied into this tree) into BUILD/stock-l3fwd for the side-by-side
# benchmark, and print the path of the binary.
#
#     devtools/stock-l3fwd.sh BUILD
#
# One change is applied, as a patch step checked to have applied: the Rx
# offloads l3fwd requests (IPv4/L4 checksum) are masked to what the port
# offers, as every real application must do; unmodified, 22.11's l3fwd
# refuses any port without Rx checksum offload (vhost-user, net_ring, ...).
# Everything else (lookup code, RFC 1812 handling, pools: 8192 mbufs of
# 2176 B, cache 256, 1024 Rx/Tx descriptors, burst 32) is DPDK's.
set -eu

[ $# -eq 1 ] || { echo "usage: $0 BUILD" >&2; exit 2; }
src=${MBUFX_STOCK_L3FWD_SRC:-/usr/share/dpdk/examples/l3fwd}
dst=$(cd "$1" && pwd)/stock-l3fwd
bin=$dst/l3fwd/build/l3fwd-shared

if [ ! -f "$src/main.c" ] || [ ! -d "$src/../common" ]; then
	echo "stock-l3fwd: no l3fwd sources in $src (Debian package dpdk-doc)" >&2
	exit 77
fi
if [ -x "$bin" ] && [ "$bin" -nt "$src/main.c" ] && [ "$bin" -nt "$0" ]; then
	echo "$bin"
	exit 0
fi
rm -rf "$dst"
mkdir -p "$dst/l3fwd"
cp -r "$src"/. "$dst/l3fwd/"
cp -r "$src/../common" "$dst/common"
chmod -R u+w "$dst"

# the patch: mask the requested Rx offloads by the port's capabilities,
# before rte_eth_dev_configure() and for the Rx queue set-up (which reads
# the global port_conf)
anchor='		if (dev_info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)'
python3 - "$dst/l3fwd/main.c" "$anchor" <<'PY'
import sys
path, anchor = sys.argv[1], sys.argv[2]
s = open(path).read()
if s.count(anchor + '\n') != 1:
    sys.exit('stock-l3fwd: patch anchor not found once in %s' % path)
patch = ('\t\t/* mbufx bench: request only the Rx offloads the port offers */\n'
         '\t\tlocal_port_conf.rxmode.offloads &= dev_info.rx_offload_capa;\n'
         '\t\tport_conf.rxmode.offloads = local_port_conf.rxmode.offloads;\n')
s = s.replace(anchor + '\n', patch + anchor + '\n')
open(path, 'w').write(s)
PY
grep -q 'local_port_conf.rxmode.offloads &= dev_info.rx_offload_capa;' "$dst/l3fwd/main.c" || {
	echo "stock-l3fwd: the offload patch did not apply" >&2
	exit 1
}
make -s -C "$dst/l3fwd" shared >"$dst/make.log" 2>&1 || {
	cat "$dst/make.log" >&2
	echo "stock-l3fwd: build failed" >&2
	exit 1
}
echo "$bin"
