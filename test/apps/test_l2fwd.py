#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""Forwarding tests of mbufx-l2fwd on net_pcap ports: port pairing and
--portmap, MAC updating, VLAN push and pop with mbufx_prepend, mirroring with
mbufx_fanout; bad command lines. Byte-exact against frames built here.

    test_l2fwd.py BUILD_DIR CASE...
"""

import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from apptest import bad_run, check, compare_frames, main, port_macs, run_pcap  # noqa: E402
from pkt import ETH_IPV4, ETH_VLAN, eth, ipv4, mac, pad, udp  # noqa: E402


def frame(i, size=60, tag=None):
    payload = bytes((i + k) & 0xff for k in range(max(0, size - 42 - (4 if tag else 0))))
    l3 = ipv4('10.0.0.1', '10.0.1.%d' % (i & 0xff), udp(7, 7, payload))
    if tag is not None:
        return pad(eth('0a:00:00:00:00:01', '0a:00:00:00:00:02', ETH_VLAN,
                       struct.pack('!HH', tag, ETH_IPV4) + l3), 60)
    return pad(eth('0a:00:00:00:00:01', '0a:00:00:00:00:02', ETH_IPV4, l3), 60)


def updated(f, port, macs):
    return mac('02:00:00:00:00:%02x' % port) + mac(macs[port]) + f[12:]


def tagged(f, tci):
    return f[:12] + struct.pack('!HH', ETH_VLAN, tci) + f[12:]


def untagged(f):
    return f[:12] + f[16:] if f[12:14] == b'\x81\x00' else f


def run_l2fwd(env, inputs, nports, args, tag='run'):
    """mbufx-l2fwd on pcap ports, every port on the one lcore."""
    return run_pcap(env, env.l2fwd, inputs, nports, ['-q', '8'] + args, tag=tag)


def case_l2_basic(env):
    """Ports paired in mask order, MAC updating; --no-mac-updating; --portmap."""
    in0 = [frame(i, 60 + 37 * i) for i in range(20)]
    in2 = [frame(100 + i, 1514 - i) for i in range(5)]
    s, out, _ = run_l2fwd(env, {0: in0, 2: in2}, 4, [], tag='pairs')
    macs = port_macs(s)
    compare_frames(out[1], [updated(f, 1, macs) for f in in0], 'port 1')
    compare_frames(out[3], [updated(f, 3, macs) for f in in2], 'port 3')
    check(out[0] == [] and out[2] == [], 'frames sent back out their input port')

    s, out, _ = run_l2fwd(env, {0: in0}, 2, ['--no-mac-updating'], tag='nomac')
    compare_frames(out[1], in0, 'port 1 (no MAC updating)')

    s, out, _ = run_l2fwd(env, {0: in0, 1: in2}, 4, ['--portmap', '(0,3),(1,2)'], tag='map')
    macs = port_macs(s)
    compare_frames(out[3], [updated(f, 3, macs) for f in in0], 'portmap: port 3')
    compare_frames(out[2], [updated(f, 2, macs) for f in in2], 'portmap: port 2')


def case_l2_vlan(env):
    """--vlan-push tags frames sent on a port (in the headroom); --vlan-pop untags."""
    in0 = [frame(i, 60 + 100 * i) for i in range(12)]
    in1 = [frame(50 + i, 80 + 90 * i, tag=7 | 2 << 13) for i in range(8)] + [frame(99, 200)]
    s, out, _ = run_l2fwd(env, {0: in0, 1: in1}, 2,
                          ['--vlan-push', '1:100:5', '--vlan-pop', '0'])
    macs = port_macs(s)
    compare_frames(out[1], [tagged(updated(f, 1, macs), 100 | 5 << 13) for f in in0],
                   'port 1 (push)')
    compare_frames(out[0], [untagged(updated(f, 0, macs)) for f in in1], 'port 0 (pop)')
    check(s['vlan_pushed'] == len(in0) and s['vlan_popped'] == len(in1) - 1,
          'push %d pop %d', s['vlan_pushed'], s['vlan_popped'])
    lib = s['zones'][0]['lib']
    check(lib['prepend_inplace'] == len(in0) + len(in1) - 1 and lib['prepend_chained'] == 0,
          'prepends not in place: %s', lib)


def case_l2_mirror(env):
    """--mirror SRC:DST[:VID]: fan-out copies as received (tagged), payload shared."""
    in0 = [frame(i, 60 + 150 * i) for i in range(10)]
    in1 = [frame(70 + i, 1000) for i in range(4)]
    s, out, _ = run_l2fwd(env, {0: in0, 1: in1}, 4,
                          ['--mirror', '0:2:300', '--mirror', '1:3', '--vlan-push', '1:42'])
    macs = port_macs(s)
    compare_frames(out[1], [tagged(updated(f, 1, macs), 42) for f in in0],
                   'port 1 (forwarded, tagged)')
    compare_frames(out[2], [tagged(f, 300) for f in in0], 'port 2 (mirror of 0, VID 300)')
    compare_frames(out[0], [updated(f, 0, macs) for f in in1], 'port 0 (forwarded)')
    compare_frames(out[3], in1, 'port 3 (mirror of 1, untagged)')
    check(s['mirrored'] == len(in0) + len(in1) and s['mirror_fail'] == 0, 'mirror counters')
    lib = s['zones'][0]['lib']
    check(lib['fanout_indirect'] > 0,
          'the shared-payload path was not exercised: %s', lib)
    # the copy fan-out keeps tags in its private headroom, not a chained header
    check(lib['prepend_chained'] == 0 and lib['fanout_hdr_saved'] > 0,
          'the kept copy did not prepend in place: %s', lib)


def bad_l2(env, args, expect):
    bad_run(env, env.l2fwd, args, expect)


def case_l2_bad_cli(env):
    """Bad l2fwd command lines: clear error, exit 1, nothing started."""
    bad_l2(env, ['-p', '3', '--mirror', '0:0'], 'source and mirror port are the same')
    bad_l2(env, ['-p', '3', '--mirror', '0:5'], 'port 5 is not in the port mask')
    bad_l2(env, ['-p', '3', '--vlan-push', '1:5000'], 'malformed or out of range')
    bad_l2(env, ['-p', '3', '--vlan-push', '1'], 'malformed')
    bad_l2(env, ['-p', '3', '--vlan-pop', 'x'], 'bad port')
    bad_l2(env, ['-p', '3', '--vlan-push', '0:5', '--vlan-pop', '0'], 'both --vlan-push')
    bad_l2(env, ['-p', '3', '--portmap', '(0,1),(1,0)'], 'in more than one pair')
    bad_l2(env, ['-p', '3', '--portmap', '(0,1'], 'error: --portmap')
    bad_l2(env, ['-p', '3', '-q', '0'], 'error: -q 0')
    bad_l2(env, ['-p', '3', '--frobnicate'], "unknown option '--frobnicate'")
    bad_l2(env, ['-p', '3', '-q', '2', '--pool-ops', 'no_such_ops'], 'cannot create zone set')
    bad_l2(env, ['-p', '3'], 'not enough lcores for the ports')


if __name__ == '__main__':
    sys.exit(main(globals()))
