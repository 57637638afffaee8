#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""Zones running dry under live traffic (mbufx-l3fwd, net_pcap ports).

A capture of tens of thousands of distinct frames streams through the app;
--squeeze ZONE:STARTp:LEN takes every free mbuf of one zone once the app has
received START packets and holds it for LEN ms, taking again whatever is
freed meanwhile, then gives it all back. Each case checks:

  - what the app did while the zone was dry, by its counters: the packet or
    jumbo zone (the Rx pool) dry -> the PMD counts rx_nombuf and the app
    keeps polling; the header zone dry -> chained encapsulation and
    multicast fan-out take their header mbufs from a larger zone (the
    library's hdr_fallback), or, with every zone dry, drop the packet
    (encap_nombuf, fanout_nombuf), while frames that need no header go
    through;
  - every frame that came out, byte for byte: the output of each port is
    exactly the expected frames of the forwarded inputs, in input order
    (no frame corrupted, none modified by a failed operation, a fan-out is
    all copies or none);
  - that every input is accounted for: forwarded + counted drops = input;
  - recovery: once the pressure is lifted, nothing is lost (the last
    quarter of the capture is forwarded whole), and no mbuf leaked.

    test_exhaust.py BUILD_DIR CASE...
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from apptest import check, main, port_macs  # noqa: E402
from test_l3fwd import drops, encapsulated, frame4, routed, run_l3fwd  # noqa: E402

SQUEEZE_MS = 2


def uframe(i, dst, size):
    """Frame number i: distinct from every other (its source address)."""
    return frame4(dst, size, src='10.%d.%d.%d' % (i >> 16 & 0xff, i >> 8 & 0xff, i & 0xff))


def forwarded(out, want, what):
    """out must be want minus some items, in order: the indexes kept."""
    kept, j = [], 0
    for k, f in enumerate(out):
        while j < len(want) and want[j] != f:
            j += 1
        check(j < len(want), '%s: output frame %d (%d bytes) is no expected frame, '
              'or out of order', what, k, len(f))
        kept.append(j)
        j += 1
    return kept


def recovered(lost, total, what):
    """Nothing lost in the last quarter of the input: the rate came back."""
    late = [i for i in lost if i >= total * 3 // 4]
    check(not late, '%s: %d frames lost after the squeeze (first: input %d)', what,
          len(late), late[0] if late else -1)


def dry_rx(env, zone, sizes, n, args, mem=256):
    """Plain routed traffic 0 -> 1 with the Rx zone dry for a while."""
    inp = [uframe(i, '198.18.1.%d' % (1 + i % 250), sizes[i % len(sizes)]) for i in range(n)]
    s, out, log = run_l3fwd(env, {0: inp}, 2, args + [
        '--squeeze', '%s:%dp:%d' % (zone, n // 8, SQUEEZE_MS)], mem=mem)
    macs = port_macs(s)
    want = [routed(f, 1, macs) for f in inp]
    kept = forwarded(out[1], want, 'port 1')
    ctl = s['ctl']
    lost = sorted(set(range(n)) - set(kept))
    check(ctl['squeezes'] == 1 and ctl['held_max'] > 0, 'no squeeze: %s', ctl)
    check(ctl['rx_nombuf'] > 0, '%s zone dry but rx_nombuf 0: %s', zone, ctl)
    check(len(kept) + ctl['rx_nombuf'] == n, '%d forwarded + %d rx_nombuf != %d sent',
          len(kept), ctl['rx_nombuf'], n)
    check(drops(s) == {}, 'drops %s', drops(s))
    recovered(lost, n, zone)
    print('%s zone dry %d ms: %d of %d frames lost as rx_nombuf, %d forwarded intact, '
          'up to %d mbufs held' % (zone, SQUEEZE_MS, len(lost), n, len(kept), ctl['held_max']))
    return s


def case_pkt_dry(env):
    """Packet zone dry: rx_nombuf grows, the app keeps polling, then full rate."""
    dry_rx(env, 'pkt', (60, 200, 777, 1514), 20000, [])


def case_jumbo_dry(env):
    """Jumbo zone (one-segment Rx of 9000-byte frames) dry: rx_nombuf, then full rate."""
    # 8000 frames: while the zone is dry net_pcap reads and drops at its own
    # rate (about 2500 frames in the 2 ms on DPDK 25.11), and the last
    # quarter must start after the squeeze has ended
    dry_rx(env, 'jumbo', (9000, 64, 4000, 1514), 8000,
           ['--max-pkt-len', '9018', '--jumbo-mbufs', '1024'], mem=384)


MC_RULES = '''R198.18.1.0/24 1 vlan 100:3
R198.18.2.0/24 2
R239.1.1.0/24 1,2,3
'''


def mc(f, port, macs):
    d = f[14 + 16:14 + 20]
    return routed(f, port, macs, '01:00:5e:%02x:%02x:%02x' % (d[1] & 0x7f, d[2], d[3]))


def case_hdr_dry(env):
    """Header zone dry: chained encap and fan-out fall back to a larger zone or drop (counted)."""
    rules = env.path('rules.cfg')
    with open(rules, 'w') as f:
        f.write(MC_RULES)
    n = 15000
    kinds = ('encap', 'plain', 'mcast')
    dst = {'encap': '198.18.1.%d', 'plain': '198.18.2.%d', 'mcast': '239.1.1.%d'}
    inp = [uframe(i, dst[kinds[i % 3]] % (1 + i % 200), (64, 300, 1200)[i // 3 % 3])
           for i in range(n)]
    s, out, _ = run_l3fwd(env, {0: inp}, 4, [
        '--rule_ipv4', rules, '--encap-chain', '--hdr-mbufs', '512',
        '--squeeze', 'hdr:%dp:%d' % (n // 8, SQUEEZE_MS)])
    macs = port_macs(s)
    want = {1: [], 2: [], 3: []}
    src = {1: [], 2: [], 3: []}
    for i, f in enumerate(inp):
        k = kinds[i % 3]
        if k == 'encap':
            want[1].append(encapsulated(f, 1, macs, 'vlan', 100 | 3 << 13))
            src[1].append(i)
        elif k == 'plain':
            want[2].append(routed(f, 2, macs))
            src[2].append(i)
        else:
            for p in (1, 2, 3):
                want[p].append(mc(f, p, macs))
                src[p].append(i)
    got = {p: set(src[p][j] for j in forwarded(out[p], want[p], 'port %d' % p))
           for p in (1, 2, 3)}
    sent = {i for p in got for i in got[p]}
    lost = {k: [i for i in range(n) if i % 3 == kinds.index(k) and i not in sent]
            for k in kinds}
    mc_in = [i for i in range(n) if kinds[i % 3] == 'mcast']
    partial = [i for i in mc_in if 0 < sum(i in got[p] for p in (1, 2, 3)) < 3]
    check(not partial, 'fan-out sent some copies only: inputs %s', partial[:5])
    check(not lost['plain'], '%d frames that need no header lost', len(lost['plain']))
    d = drops(s)
    check(set(d) <= {'encap_nombuf', 'fanout_nombuf'}, 'drops %s', d)
    check(d.get('encap_nombuf', 0) == len(lost['encap']) and
          d.get('fanout_nombuf', 0) == len(lost['mcast']),
          'drops %s, lost encap %d mcast %d', d, len(lost['encap']), len(lost['mcast']))
    # the library takes header mbufs from the next larger zone when the
    # header zone is dry (hdr_fallback); a drop only when every zone is
    lib = s['zones'][0]['lib']
    check(s['ctl']['squeezes'] == 1 and s['ctl']['held_max'] > 0, 'no squeeze: %s', s['ctl'])
    check(lib['hdr_fallback'] > 0 or (lost['encap'] and lost['mcast']),
          'header zone dry but neither fallback nor drop: %s %s', lib, s['ctl'])
    recovered(lost['encap'] + lost['mcast'], n, 'hdr')
    print('hdr zone dry %d ms: %d header mbufs from a larger zone, %d encap and %d fan-out '
          'packets dropped and counted, all %d others intact' %
          (SQUEEZE_MS, lib['hdr_fallback'], len(lost['encap']), len(lost['mcast']),
           n - len(lost['encap']) - len(lost['mcast'])))


if __name__ == '__main__':
    sys.exit(main(globals()))
