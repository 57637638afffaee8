#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# `make soak`: mbufx-l3fwd under faults for SOAK_MINUTES (default 10) on
# each kind of port in SOAK_PORTS (default "vhost xdp": two vhost-user
# ports, then two AF_XDP ports on veths in namespaces of its own), fed by
# dpdk-testpmd; see test/apps/soak.py for the schedule and what is asserted.
# Not part of `make test` (which runs the one-cycle versions,
# app_soak_compact and xdp_soak_compact).
#
#     devtools/soak.sh [BUILD_DIR]        SOAK_MINUTES=60 SOAK_PORTS=xdp devtools/soak.sh
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
minutes=${SOAK_MINUTES:-10}
case $minutes in
''|*[!0-9.]*) echo "SOAK_MINUTES=$minutes: want a number of minutes" >&2; exit 2 ;;
esac
ports=${SOAK_PORTS:-vhost xdp}
for port in $ports; do
    case $port in
    vhost|xdp) ;;
    *) echo "SOAK_PORTS=$ports: $port is not a port kind (vhost, xdp)" >&2; exit 2 ;;
    esac
done
[ -n "$ports" ] || { echo "SOAK_PORTS is empty: want vhost and/or xdp" >&2; exit 2; }
rc=0
for port in $ports; do
    echo "=== soak on $port ports, $minutes minutes"
    python3 "$here/../test/apps/soak.py" "$build" --minutes "$minutes" --port "$port" ||
        rc=1
done
exit $rc
