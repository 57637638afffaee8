#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""Forwarding tests of mbufx-l3fwd.

Most cases replay a capture written here through net_pcap ports
(rx_pcap=in.pcap, tx_pcap=out.pcap), let the app stop by itself once the
input is drained (--idle-exit), and compare every output capture byte for
byte with the frames this file expects a router to send. Every run also
checks the JSON summary: counters, drop reasons, and that no mbuf leaked.

    test_l3fwd.py BUILD_DIR CASE...
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from apptest import (NetNs, Skip, bad_run, check, compare_frames, have_hugepages,  # noqa: E402
                     main, port_macs, run_callgrind, run_pcap, summary)
from pkt import (ETH_ARP, ETH_IPV4, ETH_IPV6, ETH_MPLS, ETH_VLAN, eth,  # noqa: E402
                 ipv4, ipv4_ttl_dec, ipv6, ipv6_hlim_dec, mac, mpls, pad, udp, vlan)

import socket  # noqa: E402
import struct  # noqa: E402

GEN_MAC = '02:00:00:00:00:99'


def default_dst(port):
    return '02:00:00:00:00:%02x' % port


def frame4(dst, size=60, src='198.18.9.1', ttl=64, **kw):
    """An Ethernet/IPv4/UDP frame of size bytes (padded to 60)."""
    hdr = 14 + 20 + len(kw.get('options', b'')) + 8
    payload = bytes((i * 7) & 0xff for i in range(max(0, size - hdr)))
    return pad(eth(default_dst(0), GEN_MAC, ETH_IPV4,
                   ipv4(src, dst, udp(1024, 9, payload), ttl=ttl, **kw)), 60)


def frame6(dst, size=80, src='2001:200:0:9::1', hlim=64):
    payload = bytes((i * 5) & 0xff for i in range(max(0, size - 14 - 40 - 8)))
    return eth(default_dst(0), GEN_MAC, ETH_IPV6, ipv6(src, dst, udp(1024, 9, payload),
                                                       hlim=hlim))


def routed(frame, port, macs, dst=None):
    """What a router sends for frame on port: new MACs, TTL/hop limit - 1."""
    et = struct.unpack('!H', frame[12:14])[0]
    l3 = ipv4_ttl_dec(frame[14:]) if et == ETH_IPV4 else ipv6_hlim_dec(frame[14:])
    return mac(dst or default_dst(port)) + mac(macs[port]) + frame[12:14] + l3


def l3_trimmed(frame):
    """Routed L3 datagram without Ethernet padding (what gets encapsulated)."""
    et = struct.unpack('!H', frame[12:14])[0]
    if et == ETH_IPV4:
        l3 = ipv4_ttl_dec(frame[14:])
        return l3[:struct.unpack('!H', l3[2:4])[0]], False
    l3 = ipv6_hlim_dec(frame[14:])
    return l3[:40 + struct.unpack('!H', l3[4:6])[0]], True


def encapsulated(frame, port, macs, kind, *args):
    l3, v6 = l3_trimmed(frame)
    inner_type = ETH_IPV6 if v6 else ETH_IPV4
    dst = default_dst(port)
    if kind == 'vlan':
        return eth(dst, macs[port], ETH_VLAN, vlan(args[0], inner_type, l3))
    if kind == 'mpls':
        ttl = l3[7] if v6 else l3[8]
        return eth(dst, macs[port], ETH_MPLS, mpls(args[0], ttl, l3))
    if kind == 'ipip':
        return eth(dst, macs[port], ETH_IPV4,
                   ipv4(args[0], args[1], l3, proto=41 if v6 else 4, ident=0))
    if kind == 'gre':
        return eth(dst, macs[port], ETH_IPV4,
                   ipv4(args[0], args[1], struct.pack('!HH', 0, inner_type) + l3,
                        proto=47, ident=0))
    raise ValueError(kind)


def run_l3fwd(env, inputs, nports, args, **kw):
    """mbufx-l3fwd on pcap ports, small rings; see apptest.run_pcap()."""
    return run_pcap(env, env.l3fwd, inputs, nports,
                    ['--rx-queue-size', '256', '--tx-queue-size', '256'] + args, **kw)


def drops(s):
    return {k: v for k, v in s['drops'].items() if v}


def route_pkts(s):
    return {r['rule']: r for r in s['routes']}


def case_route(env):
    """IPv4 routing: prefixes to ports, TTL and checksum, MAC rewrite, --eth-dest."""
    inp = []
    for i, size in enumerate((60, 64, 128, 600, 1514)):
        inp.append(frame4('198.18.1.%d' % (i + 1), size))
        inp.append(frame4('198.18.2.%d' % (i + 1), size, ttl=2))
        inp.append(frame4('198.18.0.%d' % (i + 1), size, ttl=255))
    # IPv4 options (IHL 6), and a datagram shorter than the padded frame
    inp.append(frame4('198.18.1.77', 90, options=b'\x01\x01\x01\x00'))
    inp.append(pad(eth(default_dst(0), GEN_MAC, ETH_IPV4,
                       ipv4('198.18.9.1', '198.18.2.9', udp(1, 2, b'ab'))), 60))
    emac = '0a:0b:0c:0d:0e:0f'
    s, out, _ = run_l3fwd(env, {0: inp}, 3, ['--eth-dest=2,' + emac])
    macs = port_macs(s)
    want = {0: [], 1: [], 2: []}
    for f in inp:
        port = f[14 + 19]          # last byte of the destination: 198.18.P.x
        port = int.from_bytes(f[14 + 16:14 + 20], 'big') >> 8 & 0xff
        want[port].append(routed(f, port, macs, emac if port == 2 else None))
    for p in want:
        compare_frames(out[p], want[p], 'port %d' % p)
    check(drops(s) == {}, 'unexpected drops %s', drops(s))
    check(s['ports'][0]['rx_pkts'] == len(inp), 'rx count')
    r = route_pkts(s)
    check(r['198.18.1.0/24']['pkts'] == len(want[1]), 'route counter %s', r)

    # a rule file, in groups of four: routes whole in tbl24 (/16, /24), in
    # tbl8 groups (/28, /32) and misses (the /0 route), a group of each
    # kind and mixed ones; the route counters count each packet once
    rules = env.path('v4.cfg')
    prefixes = [('198.18.0.0', 16, 0), ('198.18.1.0', 24, 1), ('198.18.1.16', 28, 2),
                ('198.18.1.40', 32, 0), ('0.0.0.0', 0, 2)]
    with open(rules, 'w') as f:
        f.write(''.join('R%s/%d %d\n' % p for p in prefixes))
    dsts = ['198.18.1.1', '198.18.1.2', '198.18.7.1', '198.18.1.3',
            '198.18.1.17', '198.18.1.40', '198.18.1.30', '198.18.1.31',
            '10.1.2.3', '192.0.2.1', '198.19.0.1', '100.64.0.1',
            '198.18.1.16', '198.18.1.4', '10.9.9.9', '198.18.1.41',
            '198.18.1.40', '198.18.2.2']

    def best(dst):
        a = struct.unpack('!I', socket.inet_aton(dst))[0]
        return max((p for p in prefixes
                    if a >> (32 - p[1]) << (32 - p[1]) ==
                    struct.unpack('!I', socket.inet_aton(p[0]))[0] or p[1] == 0),
                   key=lambda p: p[1])
    inp = [frame4(d, 60 + 4 * i) for i, d in enumerate(dsts)]
    s, out, _ = run_l3fwd(env, {0: inp}, 3, ['--rule_ipv4', rules], tag='file')
    macs = port_macs(s)
    for port in range(3):
        compare_frames(out[port], [routed(f, port, macs) for f, d in zip(inp, dsts)
                                   if best(d)[2] == port], 'rule file, port %d' % port)
    check(drops(s) == {}, 'rule file: drops %s', drops(s))
    want = {'%s/%d' % p[:2]: sum(best(d) == p for d in dsts) for p in prefixes}
    got = {k: v['pkts'] for k, v in route_pkts(s).items() if k in want or v['pkts']}
    check(got == want, 'rule file: route counters %s, want %s', got, want)


def case_flags(env):
    """-P, --parse-ptype, --no-numa, --ipv6, --per-port-pool, --burst: same bytes out."""
    inp = [frame4('198.18.1.%d' % i, 60 + 40 * i) for i in range(1, 30)]
    inp += [frame6('2001:200:0:1::%x' % i, 70 + 40 * i) for i in range(1, 10)]
    s, out, log = run_l3fwd(env, {0: inp}, 2, ['-P', '--parse-ptype', '--no-numa', '--ipv6',
                                              '--per-port-pool', '--burst', '7'])
    macs = port_macs(s)
    compare_frames(out[1], [routed(f, 1, macs) for f in inp], 'port 1')
    check(len(s['zones']) == 2, 'one zone set per port expected: %s', s['zones'])


def case_multicore(env):
    """Two lcores, two Rx queues per port with RSS where offered (net_null), clean stop."""
    sj = env.path('mc.json')
    cmd = [env.l3fwd] + env.eal('0-1', 256) + [
        '--vdev', 'net_null0', '--vdev', 'net_null1', '--',
        '-p', '3', '-T', '1', '--run-time', '2', '--summary', sj,
        '--config', '(0,0,0),(0,1,1),(1,0,1),(1,1,0)']
    rc, out = env.run(cmd)
    s = summary(sj)
    check(not s['leak'], 'leak')
    check('forwarding on 2 lcore(s)' in out and 'rxq 2 txq 2' in out, 'set-up:\n%s', out[-3000:])
    check(all(p['rx_pkts'] > 0 for p in s['ports']), 'a port received nothing: %s', s['ports'])
    # net_null frames are all zeroes: every one is dropped as not IP, none lost
    check(s['drops']['not_ip'] == s['rx_pkts'], 'drops %s of %d', s['drops'], s['rx_pkts'])


def case_bench_gen(env):
    """--bench-gen on net_ring: late attach on mbufx pools, classic refill on stock ones,
    jumbo frames in one segment or five, with --bench-rx-cksum the checksum verdict
    good in every frame; everything generated is forwarded and freed."""
    for size, pool, cksum in ((64, 'mbufx', False), (64, 'ring_mp_mc', False),
                              (9000, 'mbufx', False), (9000, 'ring_mp_mc', False),
                              (64, 'mbufx', True), (64, 'ring_mp_mc', True)):
        sj = env.path('gen_%d_%s_%d.json' % (size, pool, cksum))
        args = ['-p', '3', '-T', '0', '--bench-gen', str(size), '--run-time', '1',
                '--summary', sj, '--pool-ops', pool, '--mbufs', '4095']
        if cksum:
            args.append('--bench-rx-cksum')
        if size > 1518:
            args += ['--max-pkt-len', '9018', '--jumbo-mbufs', '2047']
            if pool != 'mbufx':
                args.append('--scatter')
        env.run([env.l3fwd] + env.eal('0', 256) + ['--vdev', 'net_ring0', '--vdev',
                                                   'net_ring1', '--'] + args)
        s = summary(sj)
        g = s['gen']
        what = '%d B on %s%s' % (size, pool, ' (rx cksum)' if cksum else '')
        check(not s['leak'], '%s: leak', what)
        # RTE_MBUF_F_RX_IP_CKSUM_GOOD
        check(g['ol_flags'] == (1 << 7 if cksum else 0), '%s: %s', what, g)
        check(g['late_attach'] == (pool == 'mbufx'), '%s: late attach %s', what, g)
        check(g['segs'] == (5 if size > 1518 and pool != 'mbufx' else 1), '%s: %s', what, g)
        check(g['generated'] > 10000 and g['tx_drop'] == 0, '%s: %s', what, g)
        fwd = s['ports'][1]['tx_pkts']
        # received = forwarded; what reached the sink was freed (the rest is
        # drained at exit)
        check(s['rx_pkts'] == fwd and 0 < g['sunk'] <= fwd, '%s: rx %d fwd %d %s', what,
              s['rx_pkts'], fwd, g)
        check(s['rx_multiseg'] == (s['rx_pkts'] if g['segs'] > 1 else 0), '%s: chains %d',
              what, s['rx_multiseg'])
        check(drops(s) == {}, '%s: drops %s', what, drops(s))


# Instructions per packet of the net_ring loop (generator, router and sink
# in one lcore) under callgrind: a count, not a time, so it may be asserted.
# The bound is the count measured on mbufx pools (the net_ring callgrind rows
# of doc/results/RESULTS.md and DISTROS.md) plus room for the housekeeping
# that runs per millisecond of (slowed) wall time. The loop includes DPDK's
# own ring PMD and mempool code, which differs between releases (and
# compilers): one bound per LTS release, the largest for any other.
LOOP_INSTR_MAX_BY_RELEASE = {(22, 11): 222, (24, 11): 245, (25, 11): 233}
# What the port's checksum verdicts save per packet at least: the vector
# header checksum of the first pass (about 7 instructions) is not made.
LOOP_CKSUM_SAVED = 5


def loop_instr_max():
    """The bound for the installed DPDK release."""
    import subprocess
    v = subprocess.run(['pkg-config', '--modversion', 'libdpdk'], capture_output=True,
                       text=True, check=False).stdout.strip().split('.')
    rel = tuple(int(x) for x in v[:2]) if len(v) >= 2 and all(
        x.isdigit() for x in v[:2]) else None
    return LOOP_INSTR_MAX_BY_RELEASE.get(rel, max(LOOP_INSTR_MAX_BY_RELEASE.values()))


def case_loop_instructions(env):
    """The forwarding loop's cost does not creep up: at most loop_instr_max()
    instructions per packet on mbufx pools, never more than the same app on
    ring pools, and a 9000 B frame (one jumbo segment) at most 0.6 of its
    cost as a 2K chain of five. With the port's checksum verdicts
    (--bench-rx-cksum, the path of a NIC with Rx checksum offload) the loop
    costs at least LOOP_CKSUM_SAVED less than with the software checksum."""
    cost = {}
    for size in (64, 9000):
        for pool in ('mbufx', 'stock'):
            cost[size, pool] = run_callgrind(env, size, pool, seconds=2)
    cost[64, 'mbufx rx_cksum'] = run_callgrind(env, 64, 'mbufx', seconds=2,
                                               extra=['--bench-rx-cksum'])
    print('instructions/pkt: %s' % ', '.join('%d B %s %.1f' % (k[0], k[1], v)
                                             for k, v in sorted(cost.items())))
    bound = loop_instr_max()
    for size in (64, 9000):
        check(cost[size, 'mbufx'] <= bound, '%d B: %.1f instructions/pkt > %d',
              size, cost[size, 'mbufx'], bound)
    check(cost[64, 'mbufx'] <= cost[64, 'stock'],
          '64 B: mbufx pools %.1f > ring pools %.1f', cost[64, 'mbufx'],
          cost[64, 'stock'])
    check(cost[9000, 'mbufx'] <= 0.6 * cost[9000, 'stock'],
          '9000 B: one segment %.1f, chain %.1f', cost[9000, 'mbufx'],
          cost[9000, 'stock'])
    check(cost[64, 'mbufx rx_cksum'] <= cost[64, 'mbufx'] - LOOP_CKSUM_SAVED,
          '64 B: port checksum verdicts %.1f, software checksum %.1f',
          cost[64, 'mbufx rx_cksum'], cost[64, 'mbufx'])


def case_leak_check(env):
    """The exit audit: mbufs still out at exit are named, exit status 2."""
    inp = [frame4('198.18.1.1')] * 4
    s, out, log = run_l3fwd(env, {0: inp}, 2, ['--debug-leak', '3'], expect_rc=2,
                            check_leak=False)
    check(s['leak'], 'summary does not report the leak')
    check('LEAK' in log and 'app_s0' in log, 'leak message missing:\n%s', log[-3000:])
    compare_frames(out[1], [routed(f, 1, port_macs(s)) for f in inp], 'port 1')


def case_stock_pool(env):
    """--pool-ops ring_mp_mc: the same app and bytes on stock ring pools."""
    inp = [frame4('198.18.1.%d' % i, 60 + i * 50) for i in range(1, 20)]
    s, out, _ = run_l3fwd(env, {0: inp}, 2, ['--pool-ops', 'ring_mp_mc'])
    macs = port_macs(s)
    compare_frames(out[1], [routed(f, 1, macs) for f in inp], 'port 1')
    check(all(z['pkt']['ops'] == 'ring_mp_mc' for z in s['zones']), 'ops %s', s['zones'])
    check(s['pool_ops'] == 'ring_mp_mc', 'pool_ops')


def case_ipv6(env):
    """IPv6: default routes, longest prefix match from a rule file, hop limit."""
    inp = [frame6('2001:200:0:1::%x' % i, 80 + 10 * i) for i in range(1, 6)]
    inp += [frame6('2001:200:0:2::5', 1514, hlim=2)]
    s, out, _ = run_l3fwd(env, {0: inp}, 3, [], tag='def')
    macs = port_macs(s)
    compare_frames(out[1], [routed(f, 1, macs) for f in inp[:5]], 'default routes port 1')
    compare_frames(out[2], [routed(inp[5], 2, macs)], 'default routes port 2')

    rules = env.path('v6.cfg')
    with open(rules, 'w') as f:
        f.write('# IPv6 longest prefix match\n'
                'R2001:db8::/32 1\n'
                'R2001:db8:1::/48 2\n'
                'R2001:db8:1:2::7/128 0\n'
                'R::/0 2\n')
    inp = [frame6('2001:db8:5::1'), frame6('2001:db8:1:9::1'), frame6('2001:db8:1:2::7'),
           frame6('3fff::1'), frame6('2001:db8:1:2::8', hlim=1)]
    s, out, _ = run_l3fwd(env, {0: inp}, 3, ['--rule_ipv6', rules], tag='lpm')
    macs = port_macs(s)
    compare_frames(out[0], [routed(inp[2], 0, macs)], 'port 0 (/128)')
    compare_frames(out[1], [routed(inp[0], 1, macs)], 'port 1 (/32)')
    compare_frames(out[2], [routed(inp[1], 2, macs), routed(inp[3], 2, macs)],
                   'port 2 (/48 and ::/0)')
    check(drops(s) == {'ttl_exceeded': 1}, 'drops %s', drops(s))


def case_em(env):
    """--lookup em: exact 5-tuple match in l3fwd's EM rule format."""
    rules = env.path('em.cfg')
    with open(rules, 'w') as f:
        f.write('R198.18.1.10 198.18.0.1 9 1024 17 1\n'
                'R198.18.1.10 198.18.0.2 9 1024 17 0\n'
                'R198.18.1.11 198.18.0.1 80 1024 6 1\n')
    tcp = struct.pack('!HHIIBBHHH', 1024, 80, 1, 0, 5 << 4, 2, 1024, 0, 0)
    inp = [frame4('198.18.1.10', src='198.18.0.1'),
           frame4('198.18.1.10', src='198.18.0.2'),
           pad(eth(default_dst(0), GEN_MAC, ETH_IPV4,
                   ipv4('198.18.0.1', '198.18.1.11', tcp, proto=6)), 60),
           frame4('198.18.1.10', src='198.18.0.3')]           # no such tuple
    s, out, _ = run_l3fwd(env, {0: inp}, 2, ['--lookup', 'em', '--rule_ipv4', rules])
    macs = port_macs(s)
    compare_frames(out[1], [routed(inp[0], 1, macs), routed(inp[2], 1, macs)], 'port 1')
    compare_frames(out[0], [routed(inp[1], 0, macs)], 'port 0')
    check(drops(s) == {'no_route': 1}, 'drops %s', drops(s))


ENCAP_V4 = '''# per-route encapsulation
R198.18.1.0/24 1 vlan 100:3
R198.18.2.0/24 2 mpls 1234
R198.18.3.0/24 3 ipip 10.0.0.1 10.0.0.2
R198.18.4.0/24 1 gre 10.0.0.1 10.0.0.3
R198.18.5.0/24 2
'''
ENCAP_V6 = '''R2001:db8:1::/48 1 vlan 200
R2001:db8:2::/48 2 gre 10.9.9.1 10.9.9.2
R2001:db8:3::/48 3 ipip 10.9.9.1 10.9.9.3
R2001:db8:4::/48 1 mpls 77
'''


def case_encap(env):
    """Per-route VLAN, MPLS, IPv4-in-IPv4 and GRE (v4 and v6 inside), in place and chained."""
    r4, r6 = env.path('encap4.cfg'), env.path('encap6.cfg')
    with open(r4, 'w') as f:
        f.write(ENCAP_V4)
    with open(r6, 'w') as f:
        f.write(ENCAP_V6)
    inp, plan = [], []
    for size in (60, 200, 1514):
        for net, port, enc in ((1, 1, ('vlan', 100 | 3 << 13)), (2, 2, ('mpls', 1234)),
                               (3, 3, ('ipip', '10.0.0.1', '10.0.0.2')),
                               (4, 1, ('gre', '10.0.0.1', '10.0.0.3')), (5, 2, None)):
            inp.append(frame4('198.18.%d.1' % net, size))
            plan.append((port, enc))
        for net, port, enc in ((1, 1, ('vlan', 200)), (2, 2, ('gre', '10.9.9.1', '10.9.9.2')),
                               (3, 3, ('ipip', '10.9.9.1', '10.9.9.3')), (4, 1, ('mpls', 77))):
            inp.append(frame6('2001:db8:%d::1' % net, max(size, 62)))
            plan.append((port, enc))
    for mode in ('inplace', 'chain'):
        args = ['--rule_ipv4', r4, '--rule_ipv6', r6]
        if mode == 'chain':
            args.append('--encap-chain')
        s, out, _ = run_l3fwd(env, {0: inp}, 4, args, tag=mode)
        macs = port_macs(s)
        want = {p: [] for p in range(4)}
        for f, (port, enc) in zip(inp, plan):
            want[port].append(encapsulated(f, port, macs, *enc) if enc
                              else routed(f, port, macs))
        for p in want:
            compare_frames(out[p], want[p], '%s: port %d' % (mode, p))
        check(drops(s) == {}, '%s: drops %s', mode, drops(s))
        n_encap = sum(1 for _, e in plan if e)
        inpl = sum(r['encap_inplace'] for r in s['routes'])
        chained = sum(r['encap_chained'] for r in s['routes'])
        if mode == 'inplace':
            check((inpl, chained) == (n_encap, 0), 'in place %d chained %d of %d', inpl,
                  chained, n_encap)
            lib = s['zones'][0]['lib']
            check(lib['prepend_inplace'] == n_encap, 'library counted %s', lib)
        else:
            check((inpl, chained) == (0, n_encap), 'in place %d chained %d of %d', inpl,
                  chained, n_encap)
            # chains go to a port as they are when it offers MULTI_SEGS (net_pcap
            # does from DPDK 26.07 and in the stable releases that took that fix,
            # e.g. Debian's 24.11.8 and 25.11.4), else they are copied flat before
            # Tx; the frames out are the same bytes either way (compared above)
            multi = {s['ports'][p]['tx_multiseg'] for p in (1, 2, 3)}
            check(len(multi) == 1, 'output ports disagree on multi-seg Tx: %s', s['ports'])
            want_lin = 0 if multi == {True} else n_encap
            check(s['linearised'] == want_lin, 'linearised %d, want %d (multi-seg Tx %s)',
                  s['linearised'], want_lin, multi == {True})


REST_V4 = '''# plain routes to three ports, two encapsulating ones
R198.18.1.0/24 1 vlan 100:3
R198.18.4.0/24 1 gre 10.0.0.1 10.0.0.3
R198.18.5.0/24 2
R198.18.6.0/24 3
R198.18.7.0/24 1
'''


def case_inplace_rest(env):
    """IPv4-only bursts through the in-place rewrite: all plain (the received array is
    the output, split by port), and with an encapsulating route and an unrouted frame
    in the middle (the rest of the burst handed over): exact frames, order, byte
    counters."""
    r4 = env.path('rest4.cfg')
    with open(r4, 'w') as f:
        f.write(REST_V4)
    plain = [frame4('198.18.%d.%d' % (net, i), size)
             for i, (net, size) in enumerate(((5, 60), (6, 200), (7, 60), (5, 1514)) * 3)]
    mixed = [frame4('198.18.5.1', 60), frame4('198.18.6.2', 300),
             frame4('198.18.1.3', 60),              # VLAN: hands the rest over
             frame4('198.18.5.4', 60), frame4('10.1.1.1', 60),    # no route
             frame4('198.18.4.5', 128), frame4('198.18.7.6', 1514)]
    # an unrouted frame alone among plain ones: in a group of four, and in
    # the last frames of a burst that are not a group of four
    unrouted = [frame4('198.18.5.1', 60), frame4('10.1.1.1', 60)] + \
        [frame4('198.18.%d.%d' % (net, i), 100) for i, net in enumerate((6, 7, 5, 6, 7, 5))]
    unrouted_tail = [frame4('198.18.%d.%d' % (net, i), 100)
                     for i, net in enumerate((5, 6, 7, 5, 6))] + \
        [frame4('10.1.1.2', 60), frame4('198.18.7.9', 60)]
    enc = {1: ('vlan', 100 | 3 << 13), 4: ('gre', '10.0.0.1', '10.0.0.3')}
    port_of = {1: 1, 4: 1, 5: 2, 6: 3, 7: 1}
    for tag, inp, unrouted in (('plain', plain, 0), ('mixed', mixed, 1),
                               ('unrouted', unrouted, 1),
                               ('unrouted_tail', unrouted_tail, 1)):
        s, out, _ = run_l3fwd(env, {0: inp}, 4, ['--rule_ipv4', r4], tag=tag)
        macs = port_macs(s)
        want = {p: [] for p in range(4)}
        for f in inp:
            net = f[14 + 18]
            if f[14 + 16] != 198:
                continue
            port = port_of[net]
            want[port].append(encapsulated(f, port, macs, *enc[net]) if net in enc
                              else routed(f, port, macs))
        for p in want:
            compare_frames(out[p], want[p], '%s: port %d' % (tag, p))
        check(drops(s) == ({'no_route': 1} if unrouted else {}), '%s: drops %s', tag,
              drops(s))
        rx = s['ports'][0]
        check((rx['rx_pkts'], rx['rx_bytes']) == (len(inp), sum(len(f) for f in inp)),
              '%s: rx %d pkts %d bytes', tag, rx['rx_pkts'], rx['rx_bytes'])
        sent = sum(s['ports'][p]['tx_pkts'] for p in range(4))
        sent_bytes = sum(s['ports'][p]['tx_bytes'] for p in range(4))
        check(sent == sum(len(w) for w in want.values()) and
              sent_bytes == sum(len(f) for w in want.values() for f in w),
              '%s: tx %d pkts %d bytes', tag, sent, sent_bytes)


def case_mcast(env):
    """Multicast routes to port lists: one copy per port (not the input port), group MACs."""
    rules = env.path('mc.cfg')
    with open(rules, 'w') as f:
        f.write('R198.18.0.0/16 0\nR239.1.1.0/24 1,2,3\nR239.2.0.0/16 0,1\n')
    r6 = env.path('mc6.cfg')
    with open(r6, 'w') as f:
        f.write('Rff0e::/16 1,2\nR2001:db8::/32 3\n')
    in0 = [frame4('239.1.1.5', 60), frame4('239.1.1.6', 1000), frame4('239.2.3.4', 300),
           frame4('239.9.9.9', 60), frame6('ff0e::1:2', 500)]
    in1 = [frame4('239.2.3.5', 700)]
    s, out, _ = run_l3fwd(env, {0: in0, 1: in1}, 4, ['--rule_ipv4', rules, '--rule_ipv6', r6])
    macs = port_macs(s)

    def mc(f, port):
        if f[12:14] == b'\x86\xdd':
            dmac = '33:33:' + ':'.join('%02x' % b for b in f[14 + 24 + 12:14 + 40])
        else:
            d = f[14 + 16:14 + 20]
            dmac = '01:00:5e:%02x:%02x:%02x' % (d[1] & 0x7f, d[2], d[3])
        return routed(f, port, macs, dmac)
    compare_frames(out[1], [mc(in0[0], 1), mc(in0[1], 1), mc(in0[2], 1), mc(in0[4], 1)],
                   'port 1')
    compare_frames(out[2], [mc(in0[0], 2), mc(in0[1], 2), mc(in0[4], 2)], 'port 2')
    compare_frames(out[3], [mc(in0[0], 3), mc(in0[1], 3)], 'port 3')
    compare_frames(out[0], [mc(in1[0], 0)], 'port 0')
    check(drops(s) == {'no_route': 1}, 'drops %s', drops(s))
    lib = s['zones'][0]['lib']
    # 239.1.1.5 (60 bytes): deep copies, the original is one of the 3;
    # 239.1.1.6 and ff0e: payload shared from the original's first segment,
    # so every copy gets its own header mbuf
    check(lib['fanout_hdr_saved'] >= 1 and lib['fanout_indirect'] >= 1,
          'fan-out did not share payloads: %s', lib)


def malformed_frames():
    """(frame, reason or None when it must be forwarded to port 1)."""
    good = frame4('198.18.1.1', 100)
    out = []

    def add(f, reason):
        out.append((f, reason))
    add(good, None)
    add(b'\x02\x00\x00\x00\x00\x00\x02\x00', 'runt')                    # 8 bytes
    add(eth(default_dst(0), GEN_MAC, ETH_IPV4, b''), 'runt')          # no IP at all
    add(eth(default_dst(0), GEN_MAC, ETH_IPV4, b'\x45' + b'\0' * 10), 'runt')
    add(frame4('198.18.1.2', version=5), 'bad_version')
    add(pad(eth(default_dst(0), GEN_MAC, ETH_IPV4,
                ipv6('2001:200:0:9::1', '2001:200:0:1::1', udp(1, 2))), 60), 'bad_version')
    add(frame4('198.18.1.3', ihl=4), 'bad_ihl')
    add(frame4('198.18.1.4', ihl=15), 'truncated')                    # 60 B header, 60 B frame
    add(frame4('198.18.1.5', total_len=1000), 'bad_total_len')
    add(frame4('198.18.1.6', total_len=12), 'bad_total_len')
    add(frame4('198.18.1.7', csum=0x1234), 'bad_cksum')
    add(frame4('198.18.1.8', ttl=0), 'ttl_exceeded')
    add(frame4('198.18.1.9', ttl=1), 'ttl_exceeded')
    add(frame4('198.18.1.10', src='127.0.0.1'), 'martian')
    add(frame4('198.18.1.11', src='224.0.0.1'), 'martian')
    add(frame4('0.1.2.3'), 'martian')
    add(frame4('10.1.1.1'), 'no_route')
    add(pad(eth('ff:ff:ff:ff:ff:ff', GEN_MAC, ETH_ARP, b'\x00\x01\x08\x00\x06\x04' +
                b'\0' * 22), 60), 'not_ip')
    add(pad(eth(default_dst(0), GEN_MAC, ETH_VLAN,
                vlan(5, ETH_IPV4, ipv4('198.18.9.1', '198.18.1.1', udp(1, 2)))), 60),
        'not_ip')
    add(frame4('198.18.1.12', 1600), 'oversize')                      # > 1514
    add(frame4('198.18.1.13', 3000), 'oversize')                      # a chain from pcap
    add(eth(default_dst(0), GEN_MAC, ETH_IPV6, b'\x60' + b'\0' * 20), 'runt')
    add(frame6('2001:200:0:1::1', hlim=1), 'ttl_exceeded')
    add(frame6('2001:200:0:1::1', hlim=0), 'ttl_exceeded')
    f6 = bytearray(frame6('2001:200:0:1::2', 100))
    f6[14 + 4:14 + 6] = struct.pack('!H', 999)
    add(bytes(f6), 'bad_total_len')
    f6 = bytearray(frame6('2001:200:0:1::3', 100))
    f6[14] = 0x40
    add(bytes(f6), 'bad_version')
    add(frame6('::1', src='2001:200:0:9::1'), 'martian')
    add(frame4('198.18.1.14', 1514), None)
    add(frame6('2001:200:0:1::9', 300), None)
    return out


def case_malformed(env):
    """Malformed traffic is dropped and counted by reason; good frames around it pass."""
    frames = malformed_frames()
    inp = [f for f, _ in frames] * 3
    s, out, _ = run_l3fwd(env, {0: inp}, 2, [])
    macs = port_macs(s)
    want = [routed(f, 1, macs) for f, r in frames if r is None] * 3
    compare_frames(out[1], want, 'port 1 (good frames)')
    expect = {}
    for _, r in frames:
        if r:
            expect[r] = expect.get(r, 0) + 3
    check(drops(s) == expect, 'drops by reason %s, expected %s', drops(s), expect)
    check(s['ports'][0]['drop'] == sum(expect.values()), 'port 0 drop counter')


def case_jumbo(env):
    """--max-pkt-len 9018: 9000-byte frames in ONE jumbo-zone segment; --scatter gives chains."""
    sizes = (9000, 9014, 64, 1514, 2100, 5000)
    inp = [frame4('198.18.1.%d' % i, size) for i, size in enumerate(sizes, 1)]
    inp.append(frame4('198.18.1.99', 9100))                          # > 9014: oversize
    inp.append(frame6('2001:200:0:1::1', 9000))
    big = sum(1 for f in inp if len(f) > 2048 and len(f) <= 9014)
    for mode in ('jumbo', 'scatter'):
        args = ['--max-pkt-len', '9018', '--jumbo-mbufs', '1024']
        if mode == 'scatter':
            args.append('--scatter')
        s, out, log = run_l3fwd(env, {0: inp}, 2, args, tag=mode, mem=384)
        macs = port_macs(s)
        compare_frames(out[1], [routed(f, 1, macs) for f in inp if len(f) <= 9014],
                       '%s: port 1' % mode)
        check(drops(s) == {'oversize': 1}, '%s: drops %s', mode, drops(s))
        if mode == 'jumbo':
            check(s['rx_multiseg'] == 0, 'jumbo: %d frames arrived as chains',
                  s['rx_multiseg'])
            check('app_s0_jum' in log, 'jumbo: Rx not fed from the jumbo zone:\n%s', log)
        else:
            # the oversize 9100 B frame is a chain too
            check(s['rx_multiseg'] == big + 1, 'scatter: %d chains, expected %d',
                  s['rx_multiseg'], big + 1)


MEMIF_RULES = '''# port 0 pcap in -> IPIP -> port 1 memif server ~copy~ port 2 memif client
# -> outer destination 198.18.6.1 -> port 3 pcap out
R198.18.5.0/24 1 ipip 10.0.0.1 198.18.6.1
R198.18.6.0/24 3
'''


def case_memif(env):
    """A copying path in one process: net_memif server and client, IPIP over it."""
    rules = env.path('memif.cfg')
    with open(rules, 'w') as f:
        f.write(MEMIF_RULES)
    sock = env.path('memif.sock')
    vdevs = ['--vdev', 'net_memif0,role=server,id=0,socket=%s' % sock,
             '--vdev', 'net_memif1,role=client,id=0,socket=%s' % sock]
    # pcap ports are created first: ports 0 and 1; memif server 2, client 3
    inp = [frame4('198.18.5.%d' % i, 60 + 90 * i) for i in range(1, 16)]
    rules_txt = MEMIF_RULES.replace(' 1 ipip', ' 2 ipip').replace('/24 3', '/24 1')
    with open(rules, 'w') as f:
        f.write(rules_txt)
    s, out, log = run_l3fwd(env, {0: inp}, 4, ['--rule_ipv4', rules], extra_vdevs=vdevs,
                            pcap_ports=[0, 1])
    names = {p['port']: p['name'] for p in s['ports']}
    check(names.get(2) == 'net_memif0' and names.get(3) == 'net_memif1',
          'port order %s', names)
    macs = port_macs(s)
    want = []
    for f in inp:
        tunnel = encapsulated(f, 2, macs, 'ipip', '10.0.0.1', '198.18.6.1')
        want.append(routed(tunnel, 1, macs))
    compare_frames(out[1], want, 'port 1 (after memif)')
    check(s['ports'][2]['tx_pkts'] == len(inp) and s['ports'][3]['rx_pkts'] == len(inp),
          'memif counters %s', s['ports'])


def testpmd_port_rx(log, port):
    """RX-packets of one port in testpmd's final forward statistics."""
    import re
    m = re.search(r'Forward statistics for port %d\s+-+\s+RX-packets: (\d+)' % port, log)
    return int(m.group(1)) if m else -1


def vhost_pair(env, name, stop_first):
    """mbufx-l3fwd on two vhost-user ports fed by dpdk-testpmd (flowgen: it
    sends UDP to 10.253.0.0/16 on both ports and counts what comes back, with
    the mbufx pool) on the virtio-user side; stop_first names the side stopped
    first."""
    import shutil
    import signal
    import time
    testpmd = shutil.which('dpdk-testpmd')
    if testpmd is None:
        raise Skip('dpdk-testpmd not found')
    if not have_hugepages(700):
        raise Skip('vhost-user needs shared hugepage memory')
    s0, s1, sj = env.path(name + '0.sock'), env.path(name + '1.sock'), env.path(name + '.json')
    rules = env.path(name + '.cfg')
    with open(rules, 'w') as f:
        f.write('R10.253.0.0/16 1\n')
    fwd = env.start([env.l3fwd] + env.eal('1', 256, huge=True) + [
        '--vdev', 'net_vhost0,iface=%s,queues=1' % s0,
        '--vdev', 'net_vhost1,iface=%s,queues=1' % s1,
        '--', '-p', '3', '-T', '1', '--link-wait', '20', '--rule_ipv4', rules,
        '--summary', sj], log=name + '_l3fwd.log')
    for _ in range(100):
        if os.path.exists(s0) and os.path.exists(s1):
            break
        time.sleep(0.1)
    check(os.path.exists(s1), 'vhost sockets not created:\n%s', env.log(fwd))
    eal = env.eal('0,1', 256, huge=True, shared=True)
    gen = env.start([testpmd] + eal + [
        '--main-lcore', '1',
        '--vdev', 'net_virtio_user0,path=%s' % s0, '--vdev', 'net_virtio_user1,path=%s' % s1,
        '-d', 'librte_mempool_mbufx.so', '--mbuf-pool-ops-name=mbufx', '--',
        '--forward-mode=flowgen', '--txpkts=64',
        '--stats-period=1', '--total-num-mbufs=8192', '--nb-cores=1'],
        env=env.testpmd_env(), log=name + '_testpmd.log', ignore_sigpipe=True)
    deadline = time.time() + 30
    while time.time() < deadline and 'forwarding on' not in env.log(fwd):
        time.sleep(0.2)
    time.sleep(3)
    check(fwd.poll() is None and gen.poll() is None, 'a side died early:\n%s\n%s',
          env.log(fwd)[-2000:], env.log(gen)[-2000:])
    if stop_first == 'l3fwd':
        env.stop(fwd, signal.SIGTERM)
        time.sleep(0.5)
        env.stop(gen, signal.SIGINT)
    else:
        env.stop(gen, signal.SIGINT)
        time.sleep(0.5)
        env.stop(fwd, signal.SIGINT)
    lf, lg = env.log(fwd), env.log(gen)
    check(fwd.returncode == 0, 'mbufx-l3fwd exit %d:\n%s', fwd.returncode, lf[-3000:])
    # testpmd re-raises SIGINT after its clean exit
    check(gen.returncode in (0, -signal.SIGINT), 'testpmd exit %d:\n%s', gen.returncode,
          lg[-3000:])
    check('Bye' in lg, 'testpmd did not shut down cleanly:\n%s', lg[-3000:])
    check('mempool ops selected: mbufx' in lg, 'testpmd did not use the mbufx pool:\n%s',
          lg[-3000:])
    s = summary(sj)
    check(not s['leak'], 'mbufx-l3fwd leaked')
    rx, tx = s['ports'][0]['rx_pkts'] + s['ports'][1]['rx_pkts'], s['ports'][1]['tx_pkts']
    check(rx > 1000 and tx > 1000, 'l3fwd rx %d tx %d', rx, tx)
    if stop_first == 'testpmd':
        back = testpmd_port_rx(lg, 1)
        check(back > 1000, 'testpmd counted %d packets back on port 1:\n%s', back, lg[-3000:])
    return s


def case_testpmd_vhost(env):
    """dpdk-testpmd (mbufx pool) generates and counts; l3fwd on vhost-user; either stop order."""
    s = vhost_pair(env, 'a', 'testpmd')
    bad = {k: v for k, v in s['drops'].items() if v and k != 'tx_full'}
    check(not bad, 'drops %s', bad)
    vhost_pair(env, 'b', 'l3fwd')


def kernel_ports(env, vdevs, links, name):
    """l3fwd on two kernel-backed ports inside a namespace of its own: frames
    go in through raw sockets on links[0] / links[1], come out on the other."""
    import select
    import signal
    import socket
    import time
    sj = env.path(name + '.json')
    fwd = env.start([env.l3fwd] + env.eal('0', 256) + vdevs + [
        '--', '-p', '3', '-T', '0', '--link-wait', '5', '--summary', sj], log=name + '.log')
    deadline = time.time() + 20
    while 'forwarding on' not in env.log(fwd):
        check(fwd.poll() is None and time.time() < deadline, 'l3fwd did not start:\n%s',
              env.log(fwd)[-3000:])
        time.sleep(0.1)
    socks = []
    for ifname in links:
        sk = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
        sk.bind((ifname, 0))
        socks.append(sk)
    fwd_frames = {0: [frame4('198.18.1.%d' % i, 60 + 23 * i) for i in range(1, 40)],
                  1: [frame4('198.18.0.%d' % i, 100 + 31 * i) for i in range(1, 20)] +
                     [frame6('2001:200:0:0::%x' % i, 90 + i) for i in range(1, 6)]}
    for i in (0, 1):
        for f in fwd_frames[i]:
            socks[i].send(f)
    got = {0: [], 1: []}
    want_n = {0: len(fwd_frames[1]), 1: len(fwd_frames[0])}
    deadline = time.time() + 5
    while time.time() < deadline and any(len(got[i]) < want_n[i] for i in (0, 1)):
        ready, _, _ = select.select(socks, [], [], 0.2)
        for sk in ready:
            data, addr = sk.recvfrom(65535)
            if addr[2] == socket.PACKET_OUTGOING:
                continue
            got[socks.index(sk)].append(data)
    for sk in socks:
        sk.close()
    env.stop(fwd, signal.SIGINT)
    check(fwd.returncode == 0, 'l3fwd exit %d:\n%s', fwd.returncode, env.log(fwd)[-3000:])
    s = summary(sj)
    check(not s['leak'], 'leak')
    macs = port_macs(s)
    compare_frames(got[1], [routed(f, 1, macs) for f in fwd_frames[0]], '%s port 1' % name)
    compare_frames(got[0], [routed(f, 0, macs) for f in fwd_frames[1]], '%s port 0' % name)
    return s, env.log(fwd)


def case_af_packet(env):
    """net_af_packet on two veth pairs in a network namespace made by the test."""
    ns = NetNs('mbxapp%d' % os.getpid())
    try:
        for a, b in (('mbxa0', 'mbxb0'), ('mbxa1', 'mbxb1')):
            ns.sh('ip link add %s type veth peer name %s' % (a, b))
            ns.sh('ip link set dev %s up' % a)
            ns.sh('ip link set dev %s up' % b)
        vdevs = []
        for i in (0, 1):
            vdevs += ['--vdev', 'net_af_packet%d,iface=mbxa%d,blocksz=4096,framesz=2048,'
                      'framecnt=512,qpairs=1' % (i, i)]
        kernel_ports(env, vdevs, ('mbxb0', 'mbxb1'), 'af_packet')
    finally:
        ns.close()


def case_tap(env):
    """net_tap in a network namespace made by the test: the kernel is the peer."""
    ns = NetNs('mbxapp%d' % os.getpid())
    try:
        vdevs = ['--vdev', 'net_tap0,iface=mbxtap0', '--vdev', 'net_tap1,iface=mbxtap1']
        s, log = kernel_ports(env, vdevs, ('mbxtap0', 'mbxtap1'), 'tap')
        check('ip-cksum port' in log, 'net_tap Rx checksum offload not used:\n%s', log[-2000:])
    finally:
        ns.close()


def bad_l3(env, args, expect):
    bad_run(env, env.l3fwd, args, expect)


BAD_RULES = [
    ('R198.18.1.0/24 5\n', 'port 5, which is not enabled'),
    ('R198.18.1.0/33 1\n', 'bad prefix length'),
    ('R198.18.1.5/24 1\n', 'host bits set'),
    ('R300.18.1.0/24 1\n', 'is not an IPv4 address'),
    ('R198.18.1.0 1\n', 'is not a prefix'),
    ('R198.18.1.0/24 1\nR198.18.1.0/24 0\n', 'duplicate rule (same prefix as line 1)'),
    ('R198.18.1.0/24\n', 'expected R<prefix>'),
    ('R198.18.1.0/24 1 vxlan 5\n', "unknown action 'vxlan'"),
    ('R198.18.1.0/24 1 vlan 4095\n', 'bad VLAN id'),
    ('R198.18.1.0/24 0,1\n', 'a port list needs a multicast destination'),
    ('R239.1.0.0/16 0,1 vlan 5\n', 'encapsulation on a multicast route'),
    ('X198.18.1.0/24 1\n', "a rule starts with 'R'"),
    ('# only a comment\n', 'no rule in the file'),
]


def case_bad_cli(env):
    """Bad command lines and rule files: clear error, exit 1, no port started."""
    bad_l3(env, ['-p', '3', '--bogus'], "unknown option '--bogus'")
    bad_l3(env, ['-p', 'xyz'], 'error: -p xyz')
    bad_l3(env, ['-p', '0'], 'error: -p 0')
    bad_l3(env, ['-p', '7'], 'port 2 is in the port mask but does not exist')
    bad_l3(env, [], '-p PORTMASK is required')
    bad_l3(env, ['-p', '3', '--config', '(0,0,7)'], 'lcore 7 is not enabled')
    bad_l3(env, ['-p', '3', '--config', '(0,1,0)'], 'numbered 0..0 without gaps')
    bad_l3(env, ['-p', '3', '--config', '(0,0,0),(0,0,0)'], 'listed twice')
    bad_l3(env, ['-p', '3', '--config', '(0,0'], 'error: --config')
    bad_l3(env, ['-p', '3', '--max-pkt-len', '20000'], 'error: --max-pkt-len 20000')
    bad_l3(env, ['-p', '3', '--lookup', 'fib'], 'error: --lookup fib')
    bad_l3(env, ['-p', '3', '--eth-dest=0,zz:00'], 'error: --eth-dest')
    bad_l3(env, ['-p', '3', '--bench-rx-cksum'], '--bench-rx-cksum needs --bench-gen')
    # found by fuzz_cmdline: sscanf's %x took a sign, and a --config port
    # past RTE_MAX_ETHPORTS wrapped the port-mask shift
    bad_l3(env, ['-p', '3', '--eth-dest=0,02:00:00:00:-1:01'], 'error: --eth-dest')
    bad_l3(env, ['-p', '1', '--config', '(64,0,0)'], 'error: --config (64,0,0)')
    bad_l3(env, ['-p', '3', '--rule_ipv4', env.path('missing.cfg')], 'No such file')
    bad_l3(env, ['-p', '3', '--rule_ipv4'], 'needs an argument')
    for i, (text, msg) in enumerate(BAD_RULES):
        path = env.path('bad%d.cfg' % i)
        with open(path, 'w') as f:
            f.write(text)
        bad_l3(env, ['-p', '3', '--rule_ipv4', path], msg)
    path = env.path('bad_em.cfg')
    with open(path, 'w') as f:
        f.write('R198.18.1.0/24 1\n')
    bad_l3(env, ['-p', '3', '--lookup', 'em', '--rule_ipv4', path], 'takes a 5-tuple')
    path = env.path('bad6.cfg')
    with open(path, 'w') as f:
        f.write('R198.18.1.0/24 1\n')
    bad_l3(env, ['-p', '3', '--rule_ipv6', path], 'is not an IPv6 address')


def case_pcap_bad(env):
    """Bad captures on a net_pcap port: a file that is not a capture stops the
    set-up with a clear error; a capture cut inside its last record, or whose
    record claims more bytes than the file holds, forwards the complete frames
    before it and exits cleanly (leak audit), whatever libpcap makes of the rest."""
    from pkt import read_pcap, write_pcap
    garbage = env.path('garbage.pcap')
    with open(garbage, 'wb') as f:
        f.write(bytes((i * 37 + 11) & 0xff for i in range(300)))
    cmd = [env.l3fwd] + env.eal('0', 64) + [
        '--vdev', 'net_pcap0,rx_pcap=%s,tx_pcap=%s' % (garbage, env.path('g_out0.pcap')),
        '--vdev', 'net_pcap1,rx_pcap=%s,tx_pcap=%s' % (garbage, env.path('g_out1.pcap')),
        '--', '-p', '3', '-T', '0']
    rc, out = env.run(cmd, timeout=30, expect_rc=None)
    check(rc == 1, 'exit %d on a garbage capture (expected 1):\n%s', rc, out[-2000:])
    check('unknown file format' in out, 'no libpcap message:\n%s', out[-2000:])
    check('forwarding on' not in out, 'forwarded from a garbage capture:\n%s', out[-2000:])

    good = [frame4('198.18.1.%d' % i, 100) for i in range(1, 5)]
    for what, cut in (('cut', lambda b: b[:-10]),
                      ('long_record', lambda b: b[:-16 - 100] +
                       struct.pack('<IIII', 1, 9, 100000, 100000) + b[-100:])):
        path = env.path('%s.pcap' % what)
        write_pcap(path, good + [frame4('198.18.1.99', 100)])
        with open(path, 'rb') as f:
            data = f.read()
        with open(path, 'wb') as f:
            f.write(cut(data))
        sj = env.path('%s.json' % what)
        outs = [env.path('%s_out%d.pcap' % (what, p)) for p in (0, 1)]
        empty = env.path('%s_empty.pcap' % what)
        write_pcap(empty, [])
        cmd = [env.l3fwd] + env.eal('0', 64) + [
            '--vdev', 'net_pcap0,rx_pcap=%s,tx_pcap=%s' % (path, outs[0]),
            '--vdev', 'net_pcap1,rx_pcap=%s,tx_pcap=%s' % (empty, outs[1]),
            '--', '-p', '3', '-T', '0', '--idle-exit', '400', '--summary', sj]
        _, out = env.run(cmd, expect_rc=0)
        s = summary(sj)
        check(not s['leak'], '%s: mbufs leaked:\n%s', what, out[-3000:])
        got = read_pcap(outs[1])
        macs = port_macs(s)
        compare_frames(got[:len(good)], [routed(f, 1, macs) for f in good], what)


if __name__ == '__main__':
    sys.exit(main(globals()))
