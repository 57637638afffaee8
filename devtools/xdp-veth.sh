#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# A veth pair between two network namespaces for AF_XDP tests, named after
# a tag (the caller's pid): "xdp-veth.sh up TAG" creates netns mxA<TAG>
# (host end mxa<TAG>, 10.77.0.1/24, IPv6 off, Tx checksum offload off) and
# mxB<TAG> (port end mxb<TAG>, where the PMD runs, no address), one Rx and
# one Tx queue each; "xdp-veth.sh down TAG" removes both namespaces.
# Exit 77 when the platform cannot (no root, no veth, no netns).
set -e
cmd=$1 tag=$2 mtu=${3:-1500}
[ -n "$tag" ] || { echo "usage: $0 up|down TAG [MTU]" >&2; exit 2; }
A=mxA$tag B=mxB$tag a=mxa$tag b=mxb$tag
case $cmd in
up)
    if [ "$(id -u)" -ne 0 ]; then
        echo "xdp-veth: needs root (netns, veth, AF_XDP)" >&2; exit 77
    fi
    ip netns add "$A" 2>/dev/null || { echo "xdp-veth: no netns" >&2; exit 77; }
    ip netns add "$B"
    if ! ip link add "$a" netns "$A" numtxqueues 1 numrxqueues 1 type veth \
            peer name "$b" netns "$B" numtxqueues 1 numrxqueues 1; then
        ip netns del "$A"; ip netns del "$B"
        echo "xdp-veth: no veth" >&2; exit 77
    fi
    for ns in "$A" "$B"; do
        ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
        ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
        ip netns exec "$ns" ip link set lo up
    done
    ip netns exec "$A" sysctl -qw net.ipv6.conf."$a".disable_ipv6=1
    ip netns exec "$B" sysctl -qw net.ipv6.conf."$b".disable_ipv6=1
    ip netns exec "$A" ip link set "$a" mtu "$mtu" up
    ip netns exec "$B" ip link set "$b" mtu "$mtu" up
    ip netns exec "$A" ip addr add 10.77.0.1/24 dev "$a"
    ip netns exec "$A" ethtool -K "$a" tx off >/dev/null 2>&1 || true
    ;;
down)
    ip netns del "$A" 2>/dev/null || true
    ip netns del "$B" 2>/dev/null || true
    ;;
*)
    echo "usage: $0 up|down TAG [MTU]" >&2; exit 2 ;;
esac
