# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""Network plumbing of the AF_XDP tests, the benchmark and the demo.

A topology is three network namespaces made here and two veth pairs:

    namespace A (host)            namespace R (router)           namespace B (host)
    198.18.0.2/24                 DPDK: port 0      port 1         198.18.1.2/24
    mxa<tag> ===== veth ===== mxr0<tag>          mxr1<tag> ===== veth ===== mxb<tag>
    route 198.18.1.0/24                                          route 198.18.0.0/24
      via 198.18.0.1 (static                                       via 198.18.1.1 (static
      neighbour = mxr0's MAC)                                      neighbour = mxr1's MAC)

The DPDK program (mbufx-l3fwd or dpdk-testpmd) runs in R through `ip netns
exec` on both router veths; it never answers ARP, so the hosts get static
neighbour entries. Every veth has one Rx and one Tx queue (XDP sockets bind
queue 0 and a frame must not land on another queue), IPv6 is off (no MLD or
router solicitations in exact tests), and the hosts' veths have Tx checksum
offload off: with it on, Linux sends UDP over veth with the checksum
unfinished, the frame crosses AF_XDP as it is and the far host drops it.

Sockets of a host are opened with the calling thread moved into the host's
namespace for the moment of the call (setns): a socket stays in the
namespace it was created in. Everything made here is removed by close(),
which every user calls from a finally block; names carry the pid and a
counter so that parallel runs never meet.

Standard library only. Exit codes follow the runner: 0 pass, 77 skip, 1 fail.
"""

import contextlib
import ctypes
import os
import select
import shutil
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'apps'))

from apptest import Fail, Skip, check  # noqa: E402,F401

CLONE_NEWNET = 0x40000000
CAP_NET_ADMIN = 12
CAP_IPC_LOCK = 14
CAP_SYS_ADMIN = 21
CAP_BPF = 39
ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
SOL_PACKET = 263
PACKET_AUXDATA = 8
TP_STATUS_VLAN_VALID = 0x10
TP_STATUS_VLAN_TPID_VALID = 0x40

HOST_A = '198.18.0.2'
HOST_B = '198.18.1.2'
GW_A = '198.18.0.1'
GW_B = '198.18.1.1'

_libc = ctypes.CDLL(None, use_errno=True)
_seq = [0]


def _caps():
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith('CapEff:'):
                return int(line.split()[1], 16)
    return 0


def require_afxdp():
    """Skip (with the reason) where AF_XDP on veth cannot run here."""
    caps = _caps()
    need = [('CAP_NET_ADMIN', CAP_NET_ADMIN), ('CAP_IPC_LOCK', CAP_IPC_LOCK)]
    # kernels before 5.8 have no CAP_BPF: CAP_SYS_ADMIN covers it there
    bpf = (caps >> CAP_BPF) & 1 or (caps >> CAP_SYS_ADMIN) & 1
    missing = [n for n, bit in need if not (caps >> bit) & 1]
    if not bpf:
        missing.append('CAP_BPF')
    if missing:
        raise Skip('AF_XDP needs %s (run as root)' % ', '.join(missing))
    for tool in ('ip', 'ethtool'):
        if shutil.which(tool) is None:
            raise Skip('%s not found (Debian packages iproute2, ethtool)' % tool)
    if not hasattr(socket, 'AF_XDP') and not os.path.exists('/proc/net/xdp_mmap') \
            and not _kernel_has_xsk():
        raise Skip('the kernel has no AF_XDP sockets (CONFIG_XDP_SOCKETS)')


def _kernel_has_xsk():
    """Probe: creating an AF_XDP (44) socket works or fails with EPERM only."""
    try:
        s = socket.socket(44, socket.SOCK_RAW, 0)
        s.close()
        return True
    except OSError as e:
        return e.errno == 1


def _run(cmd, ns=None, check_rc=True, timeout=20):
    if ns is not None:
        cmd = ['ip', 'netns', 'exec', ns] + cmd
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout)
    out = r.stdout.decode(errors='replace').strip()
    if check_rc and r.returncode != 0:
        raise Fail('%s: exit %d: %s' % (' '.join(cmd), r.returncode, out))
    return r.returncode, out


@contextlib.contextmanager
def in_netns(name):
    """Run the body with this thread in namespace name (back afterwards)."""
    orig = os.open('/proc/self/ns/net', os.O_RDONLY)
    fd = os.open('/run/netns/' + name, os.O_RDONLY)
    try:
        if _libc.setns(fd, CLONE_NEWNET) != 0:
            raise Fail('setns %s: errno %d' % (name, ctypes.get_errno()))
        yield
    finally:
        os.close(fd)
        _libc.setns(orig, CLONE_NEWNET)
        os.close(orig)


def sweep_stale():
    """Remove the namespaces of earlier runs that were killed before their
    cleanup ran (SIGKILL, a machine reset): ours are named
    mbufx-xdp-{A,R,B}-<pid><letter>, and the pid is no longer alive."""
    try:
        names = os.listdir('/run/netns')
    except OSError:
        return
    for n in names:
        parts = n.split('-')
        if len(parts) != 4 or parts[:2] != ['mbufx', 'xdp'] or not parts[3][:-1].isdigit():
            continue
        try:
            os.kill(int(parts[3][:-1]), 0)
        except ProcessLookupError:
            _run(['ip', 'netns', 'del', n], check_rc=False)
        except OSError:
            pass


class Topo:
    """Host A -- router R -- host B (module docstring); mtu on all four veths."""

    def __init__(self, mtu=1500, tag=None, queues=1):
        require_afxdp()
        sweep_stale()
        _seq[0] += 1
        self.tag = tag or '%d%s' % (os.getpid() % 10000000, 'abcdefgh'[_seq[0] % 8])
        t = self.tag
        self.ns = {'A': 'mbufx-xdp-A-' + t, 'R': 'mbufx-xdp-R-' + t, 'B': 'mbufx-xdp-B-' + t}
        self.ifs = {'A': 'mxa' + t, 'R0': 'mxr0' + t, 'R1': 'mxr1' + t, 'B': 'mxb' + t}
        self.made = []
        self.queues = queues
        try:
            self._build(mtu)
        except BaseException:
            self.close()
            raise

    def _build(self, mtu):
        for key in ('A', 'R', 'B'):
            rc, out = _run(['ip', 'netns', 'add', self.ns[key]], check_rc=False)
            if rc != 0:
                raise Skip('cannot create a network namespace: %s' % out)
            self.made.append(self.ns[key])
            self.sysctl(key, 'net.ipv6.conf.all.disable_ipv6', 1)
            self.sysctl(key, 'net.ipv6.conf.default.disable_ipv6', 1)
            self.ip(key, 'link set lo up')
        for host, rport in (('A', 'R0'), ('B', 'R1')):
            rc, out = _run(['ip', 'link', 'add', self.ifs[host], 'netns', self.ns[host],
                            'numtxqueues', str(self.queues), 'numrxqueues',
                            str(self.queues), 'type', 'veth',
                            'peer', 'name', self.ifs[rport], 'netns', self.ns['R'],
                            'numtxqueues', str(self.queues), 'numrxqueues',
                            str(self.queues)], check_rc=False)
            if rc != 0:
                raise Skip('cannot create a veth pair: %s' % out)
        self.set_mtu(mtu)
        for key in ('A', 'R0', 'R1', 'B'):
            self.ip(key[0], 'link set %s up' % self.ifs[key])
        for host in ('A', 'B'):
            _run(['ethtool', '-K', self.ifs[host], 'tx', 'off'], ns=self.ns[host])
        self.mac = {k: self.read_mac(k) for k in self.ifs}
        self.ip('A', 'addr add %s/24 dev %s' % (HOST_A, self.ifs['A']))
        self.ip('B', 'addr add %s/24 dev %s' % (HOST_B, self.ifs['B']))
        self.ip('A', 'neigh replace %s lladdr %s dev %s nud permanent' %
                (GW_A, self.mac['R0'], self.ifs['A']))
        self.ip('B', 'neigh replace %s lladdr %s dev %s nud permanent' %
                (GW_B, self.mac['R1'], self.ifs['B']))
        self.ip('A', 'route add 198.18.1.0/24 via %s' % GW_A)
        self.ip('B', 'route add 198.18.0.0/24 via %s' % GW_B)

    def ip(self, where, args):
        return _run(['ip', '-n', self.ns[where]] + args.split())[1]

    def sysctl(self, where, key, value):
        path = '/proc/sys/' + key.replace('.', '/')
        with in_netns(self.ns[where]):
            with open(path, 'w') as f:
                f.write(str(value))

    def link_json(self, key, stats=False):
        """`ip -j link show` of a veth (sysfs is not per thread: ask ip)."""
        import json
        args = ['-j'] + (['-s'] if stats else []) + ['link', 'show', 'dev', self.ifs[key]]
        return json.loads(self.ip(key[0], ' '.join(args)))[0]

    def read_mac(self, key):
        return self.link_json(key)['address']

    def set_mtu(self, mtu):
        for key in ('A', 'R0', 'R1', 'B'):
            self.ip(key[0], 'link set %s mtu %d' % (self.ifs[key], mtu))

    def link(self, key, up):
        """ip link set IF up|down (key: A, R0, R1, B)."""
        self.ip(key[0], 'link set %s %s' % (self.ifs[key], 'up' if up else 'down'))

    def exec_args(self, where='R'):
        """Prefix of a command run in a namespace."""
        return ['ip', 'netns', 'exec', self.ns[where]]

    def run(self, where, cmd, timeout=20, check_rc=True):
        return _run(cmd, ns=self.ns[where], check_rc=check_rc, timeout=timeout)

    def ping(self, where, dst, count=3, size=56, interval=0.05):
        """Kernel ping from a host; returns the number of replies received."""
        if shutil.which('ping') is None:
            raise Skip('ping not found (Debian package iputils-ping)')
        _, out = self.run(where, ['ping', '-n', '-q', '-c', str(count), '-i', str(interval),
                                  '-s', str(size), '-W', '1', '-M', 'dont', dst],
                          timeout=count * 2 + 10, check_rc=False)
        for line in out.splitlines():
            if 'received' in line:
                return int(line.split(',')[1].split()[0])
        raise Fail('ping output not understood: %s' % out)

    def xdp_attached(self, key):
        """True when an XDP program is attached to a router veth."""
        return 'xdp' in self.link_json(key)

    def stats(self, key):
        """Kernel counters of a veth: {'rx': {...}, 'tx': {...}}."""
        s = self.link_json(key, stats=True)['stats64']
        return {'rx': s['rx'], 'tx': s['tx']}

    def close(self):
        for ns in reversed(self.made):
            _run(['ip', 'netns', 'del', ns], check_rc=False)
        self.made = []


class Raw:
    """An AF_PACKET socket on a host's veth: send frames, sniff what the
    host sends (outgoing=True) or receives. The kernel strips a received
    802.1Q tag into the socket's auxiliary data (VLAN acceleration): the
    sniffer puts it back, so that frames read as they were on the wire."""

    def __init__(self, topo, host, rcvbuf=8 << 20):
        with in_netns(topo.ns[host]):
            self.sk = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
            self.sk.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
            self.sk.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, rcvbuf)
            self.sk.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)
            self.sk.bind((topo.ifs[host], 0))
        self.sk.setblocking(False)

    def send(self, frame):
        for _ in range(1000):
            try:
                return self.sk.send(frame)
            except BlockingIOError:
                select.select([], [self.sk], [], 0.01)
        raise Fail('AF_PACKET send blocked for 10 s')

    def recv(self, want, timeout=3.0, outgoing=False, ipv4_only=True):
        """Frames until want of them arrived or timeout; returns the list."""
        got = []
        deadline = time.time() + timeout
        while len(got) < want:
            left = deadline - time.time()
            if left <= 0:
                break
            r, _, _ = select.select([self.sk], [], [], left)
            if not r:
                break
            got += self.drain(outgoing, ipv4_only, limit=want - len(got))
        return got

    def drain(self, outgoing=False, ipv4_only=True, limit=100000):
        """What is queued now: at most limit frames, and at most one second
        of reading (a flood never drains)."""
        got = []
        end = time.time() + 1.0
        while len(got) < limit and time.time() < end:
            try:
                data, anc, _, addr = self.sk.recvmsg(65535, socket.CMSG_SPACE(20))
            except BlockingIOError:
                return got
            data = self._retag(data, anc)
            if (addr[2] == PACKET_OUTGOING) != outgoing:
                continue
            if ipv4_only and data[12:14] != b'\x08\x00':
                continue
            got.append(data)
        return got

    @staticmethod
    def _retag(data, anc):
        """data with the 802.1Q tag the kernel took out of it, if any."""
        import struct
        for level, kind, aux in anc:
            if level != SOL_PACKET or kind != PACKET_AUXDATA or len(aux) < 20:
                continue
            status, _, _, _, _, tci, tpid = struct.unpack('IIIHHHH', aux[:20])
            if status & TP_STATUS_VLAN_VALID:
                if not status & TP_STATUS_VLAN_TPID_VALID:
                    tpid = 0x8100
                return data[:12] + struct.pack('!HH', tpid, tci) + data[12:]
        return data

    def close(self):
        self.sk.close()


def udp_socket(topo, host, port=0, rcvbuf=8 << 20):
    """A kernel UDP socket of a host bound to its address."""
    with in_netns(topo.ns[host]):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        s.bind((HOST_A if host == 'A' else HOST_B, port))
    return s


class Pmd:
    """How to open an AF_XDP port: ours (the plugin from the build tree) or
    DPDK's net_af_xdp (Debian's, autoloaded)."""

    def __init__(self, kind, build):
        self.kind = kind
        self.build = os.path.abspath(build)
        if kind == 'mbufx_xdp':
            self.drv = 'net_mbufx_xdp'
            self.dir = os.path.join(self.build, 'drivers', 'net', 'mbufx_xdp')
            self.plugin = 'librte_net_mbufx_xdp.so'
        elif kind == 'af_xdp':
            self.drv = 'net_af_xdp'
            self.dir = None
            self.plugin = None
        else:
            raise ValueError(kind)

    def require(self):
        if self.kind == 'mbufx_xdp':
            if not os.path.exists(os.path.join(self.dir, self.plugin)):
                raise Skip('%s is not built (drivers/net/mbufx_xdp): nothing to test yet' %
                           os.path.join(self.dir, self.plugin))
        elif not stock_af_xdp_available():
            raise Skip("DPDK's net_af_xdp is not installed (Debian package dpdk)")

    def vdev(self, idx, iface, **kw):
        args = ['iface=' + iface] + ['%s=%s' % (k, v) for k, v in kw.items()]
        return ['--vdev', '%s%d,%s' % (self.drv, idx, ','.join(args))]

    def eal_args(self):
        return ['-d', self.plugin] if self.plugin else []

    def ld_path(self):
        return self.dir


class Generator:
    """dpdk-testpmd txonly on net_af_packet in host A: frames of size bytes
    to the router, its forwarding core on lcore 0."""

    def __init__(self, env, topo, size, dst='198.18.1.77', log=None, multi_flow=False):
        self.env = env
        testpmd = shutil.which('dpdk-testpmd')
        if testpmd is None:
            raise Skip('dpdk-testpmd not found')
        args = ['--forward-mode=txonly', '--txpkts=%d' % size, '--nb-cores=1',
                '--total-num-mbufs=%d' % (4096 if size > 2048 else 8192),
                '--eth-peer=0,%s' % topo.mac['R0'],
                '--stats-period=1', '--tx-ip=198.18.0.2,%s' % dst, '--txq=1', '--rxq=1']
        if multi_flow:
            # a source address per frame: the veth's flow hash spreads them
            # over its queues
            args += ['--txonly-multi-flow']
        if size > 2048:
            # one segment per frame, and af_packet's Rx frames (16 KiB) fit
            args += ['--mbuf-size=16512']
        framesz = 16384 if size > 2048 else 2048
        self.proc = env.start(topo.exec_args('A') + [testpmd] + env.eal('0,1', 384) +
                              ['--main-lcore', '1', '--vdev',
                               'net_af_packet0,iface=%s,blocksz=%d,framesz=%d,framecnt=512,'
                               'qdisc_bypass=1' % (topo.ifs['A'], framesz * 2, framesz),
                               '--'] + args, log=log or 'gen%d.log' % size)
        deadline = time.time() + 30
        while 'Port statistics' not in env.log(self.proc):
            if self.proc.poll() is not None or time.time() > deadline:
                raise Fail('generator did not start:\n%s' % env.log(self.proc)[-3000:])
            time.sleep(0.1)

    def stop(self):
        self.env.stop(self.proc)


def stock_af_xdp_available():
    out = subprocess.run(['pkg-config', '--variable=pmdsdir', 'libdpdk'],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    d = out.stdout.decode().strip()
    cands = [d] if d else []
    cands += ['/usr/lib/x86_64-linux-gnu/dpdk', '/usr/lib/dpdk']
    for c in cands:
        for root, _, files in os.walk(c):
            if 'librte_net_af_xdp.so' in files:
                return True
    return False
