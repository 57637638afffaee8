#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""AF_XDP benchmark (devtools/bench-xdp.sh, part of `make bench`) and the
AF_XDP part of `make demo`.

    xdpbench.py bench BUILD OUT_JSON [--reps N] [--seconds S]
    xdpbench.py ab BUILD OUT_JSON [--reps N] [--seconds S] [--ref REF_BUILD]
    xdpbench.py zc BUILD [--reps N]
    xdpbench.py demo BUILD [--seconds S]

bench: one topology (xdpnet.Topo), a generator in host A (dpdk-testpmd
txonly on net_af_packet, its own core) and dpdk-testpmd on the router's two
veths with --record-core-cycles (the other core). For each repetition, every
combination of port (net_mbufx_xdp, DPDK's net_af_xdp) and pool (mbufx,
ring_mp_mc) runs in turn (interleaved), at 64 B and 1518 B: io forwarding
(rx_burst + tx_burst) and rxonly (rx_burst + free) windows. Reported, as
medians: forwarded Mpps, the forwarding core's cycles per packet (testpmd
counts only iterations that received something), the kernel's share
(system + softirq time of both CPUs per packet, from /proc/stat), and the
mbuf header cache lines the PMD touches per received packet (its xstats).
Then 9000-byte frames on ours (the stock PMD cannot attach at MTU 9000).

On veth in copy mode the kernel copies every received frame into the UMEM
in the SENDER's softirq (the generator's CPU), and every transmitted frame
inside the router's sendto() kick: Mpps is bound by the kernel, and the
PMD's own cost is the forwarding core's cycles per packet minus the kernel
work it triggers (rxonly: none on the forwarding core).

ab: late attach against the classic refill on the same port, veth pair and
traffic: net_mbufx_xdp with rx_refill=late and rx_refill=classic (what DPDK's
net_af_xdp does: header reset at refill, received fields at completion),
64-byte frames, 4096-descriptor rings (--rxd/--txd 4096), the mbufx pool,
io forwarding, interleaved repetitions. Reported, as medians: the forwarding
core's cycles per packet (rx_burst + tx_burst; and rxonly: rx_burst + free),
forwarded Mpps, mbuf header lines written per received packet
(rx_hdr_lines_written), and the receive loop's instructions and simulated
L1 misses per packet under callgrind (mbufx-xdp-rx-icount, both modes). --ref adds
a third variant, another build's default mode (before/after a change).
And the PMD's own cycles per packet: the forwarding core's less the TSC
cycles inside the PMD's syscalls in those iterations (xstats
tx_kick_cycles and kin, syscall_split()): in copy mode every Tx kick runs
the kernel's copy of the frames on the forwarding core, a cost a
zero-copy NIC does not put there.

ab also times the same io path of both modes over the fake kernel playing a
zero-copy NIC (mbufx-xdp-zc-bench, zc_ab(); zc runs that part alone): the
PMD's own cycles per packet with no syscall and no kernel copy on the
forwarding core, full bursts, the device's work untimed.

demo: host A pings host B and sends UDP through mbufx-l3fwd on two
net_mbufx_xdp ports, with live stats, for a bounded time.
"""

import contextlib
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'test', 'xdp'))
sys.path.insert(0, os.path.join(HERE, '..', 'test', 'apps'))

from apptest import Env, Fail, Skip  # noqa: E402
from xdpnet import HOST_B, Generator, Pmd, Topo  # noqa: E402
from fwdbench import write_doc  # noqa: E402
import test_xdp  # noqa: E402
from test_xdp import Testpmd, l3fwd, finish_l3fwd  # noqa: E402

# the tests' progress trace (every testpmd command) is noise here
test_xdp.trace = lambda msg: None

HZ = os.sysconf('SC_CLK_TCK')


def cpu_times():
    """(system + softirq + irq, total) jiffies over all CPUs."""
    with open('/proc/stat') as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return v[2] + v[5] + v[6], sum(v)


def tsc_hz(log):
    m = re.search(r'TSC ([\d.]+) GHz', log)
    return float(m.group(1)) * 1e9 if m else 0.0


def window(tp, seconds, busy=None):
    """start; seconds; stop: (rx port 0, tx port 1, cycles/pkt, kernel
    jiffies, elapsed, rx dropped on port 0). busy (a dict) receives
    testpmd's two terms of cycles/pkt: 'cycles' (TSC cycles of the
    iterations that received something) and 'pkts' (packets received on
    all ports)."""
    k0, _ = cpu_times()
    t0 = time.time()
    tp.cmd_wait('start')
    time.sleep(seconds)
    ans = tp.cmd_wait('stop', expect='Accumulated')
    t1 = time.time()
    k1, _ = cpu_times()
    st = tp.fwd_stats(ans)
    m = re.search(r'CPU cycles/packet=([\d.]+)', ans)
    if busy is not None:
        b = re.search(r'total cycles=(\d+) / total \S+ packets=(\d+)', ans)
        busy.update({'cycles': int(b.group(1)), 'pkts': int(b.group(2))} if b else {})
    return (st.get(0, (0, 0, 0))[0], st.get(1, (0, 0, 0))[1],
            float(m.group(1)) if m else None, k1 - k0, t1 - t0, st.get(0, (0, 0, 0))[2])


def loadavg():
    """/proc/loadavg's first three fields (the machine is shared)."""
    with open('/proc/loadavg') as f:
        return ' '.join(f.read().split()[:3])


def port_xstats(tp, port):
    """{name: value} of testpmd's `show port xstats PORT`."""
    ans = tp.cmd_wait('show port xstats %d' % port)
    return {n: int(v) for n, v in re.findall(r'^\s*(\S+): (\d+)\s*$', ans, re.M)}


def header_lines(tp, xs=None):
    """(xstat name, mbuf header cache lines written per received packet)
    from port 0's xstats (xs: as read already), or None when the PMD has
    no such counter."""
    if xs is None:
        xs = port_xstats(tp, 0)
    rx = xs.get('rx_good_packets', 0)
    for name, val in xs.items():
        if ('hdr' in name or 'header' in name) and rx:
            return name, val / rx
    return None


@contextlib.contextmanager
def topology(env, size, **kw):
    """A fresh xdpnet.Topo (kw: its mtu, queues) with host A's generator
    sending frames of size bytes (None: no generator yet); removed after."""
    topo = Topo(**kw)
    try:
        with generating(env, topo, size):
            yield topo
    finally:
        topo.close()


@contextlib.contextmanager
def generating(env, topo, size, **kw):
    """Host A's generator on topo for the block (size None: none)."""
    gen = Generator(env, topo, size, **kw) if size is not None else None
    try:
        yield gen
    finally:
        if gen is not None:
            gen.stop()


BASE_ARGS = ['--record-core-cycles', '--eth-peer=1,02:00:00:00:00:01']


def io_then_rxonly(env, topo, pmd, args, pool, kw, name, seconds, busy=None):
    """dpdk-testpmd on the router's two ports: a 0.5 s io warm-up, an io
    window, the header lines from port 0's xstats, an rxonly window.
    Returns (io window, header lines, rxonly window), windows as window().
    busy (a dict): the io window's busy cycles and packets (window()), and
    'xstats', {port: {name: value}} of both ports over the io window."""
    # MBUFX_BENCH_RT=1: the router under SCHED_FIFO, so that other jobs do
    # not preempt the forwarding loop (testpmd charges a preemption to the
    # next iteration that finds packets: cycles/packet then measure the
    # machine's load, not the PMD)
    rt = ['chrt', '-f', '50'] if os.environ.get('MBUFX_BENCH_RT') == '1' else []
    tp = Testpmd(env, topo, pmd, BASE_ARGS + args, pool=pool, prefix=rt, vdev_kw=kw,
                 name=name)
    try:
        tp.ready()
        tp.cmd_wait('set fwd io')
        window(tp, 0.5)                             # warm-up: rings primed
        tp.cmd_wait('clear port xstats all')
        io = window(tp, seconds, busy)
        xs = {p: port_xstats(tp, p) for p in (0, 1)}
        hl = header_lines(tp, xs[0])
        if busy is not None:
            busy['xstats'] = xs
        tp.cmd_wait('set fwd rxonly')
        rxonly = window(tp, seconds)
        tp.quit()
    except Fail:
        tp.env.stop(tp.proc, 9)
        raise
    return io, hl, rxonly


def one_run(env, topo, kind, pool, size, seconds, tsc, queues=1):
    args = []
    kw = None
    if queues > 1:
        # one forwarding core polls every queue (the other CPU generates)
        args += ['--rxq=%d' % queues, '--txq=%d' % queues]
        kw = {'queue_count': queues}
    if size > 2048:
        args += ['--max-pkt-len=9018', '--enable-scatter']
    (rx, tx, cpp, kj, el, drop), hl, (rrx, _, rcpp, _, rel, rdrop) = io_then_rxonly(
        env, topo, Pmd(kind, env.build), args, pool, kw,
        '%s_%s_%d_%d' % (kind, pool, size, env.nrun), seconds)
    return {'mpps': tx / el / 1e6, 'rx_mpps': rx / el / 1e6, 'cpp': cpp,
            'kernel_cpp': (kj / HZ * tsc / rx) if rx and tsc else None,
            'rxonly_mpps': rrx / rel / 1e6, 'rxonly_cpp': rcpp,
            'offered_mpps': (rx + drop) / el / 1e6,
            'rx_loss': drop / (rx + drop) if rx + drop else None,
            'hdr': hl}


def median(xs):
    xs = [x for x in xs if x is not None]
    return round(statistics.median(xs), 3) if xs else None


def bench(build, out, reps, seconds):
    env = Env(build, 'xdpbench')
    res = {}
    notes = []
    try:
        kinds = []
        for k in ('mbufx_xdp', 'af_xdp'):
            try:
                Pmd(k, build).require()
                kinds.append(k)
            except Skip as e:
                notes.append(str(e))
                print('bench-xdp: %s' % e)
        if not kinds:
            raise Skip('neither AF_XDP PMD is available')
        tsc = 0.0
        with topology(env, None, mtu=1500) as topo:
            for size in (64, 1518):
                with generating(env, topo, size - 4):
                    for r in range(reps):
                        for kind in kinds:
                            for pool in ('mbufx', 'ring'):
                                if not tsc:
                                    tsc = measure_tsc()
                                v = one_run(env, topo, kind, pool, size - 4, seconds, tsc)
                                res.setdefault((size, kind, pool), []).append(v)
                                print('  %4d B rep %d %-9s %-5s io %.3f Mpps (offered %.3f, '
                                      'lost %.0f%%) %s cyc/pkt; rxonly %s cyc/pkt; kernel '
                                      '%s cyc/pkt; hdr %s' %
                                      (size, r + 1, kind, pool, v['mpps'], v['offered_mpps'],
                                       100 * (v['rx_loss'] or 0), fmt(v['cpp']),
                                       fmt(v['rxonly_cpp']), fmt(v['kernel_cpp']),
                                       v['hdr']), flush=True)
        if 'mbufx_xdp' in kinds:
            two_queue_runs(env, reps, seconds, tsc, res)
        jumbo = 'mbufx_xdp' in kinds and jumbo_runs(env, reps, seconds, tsc, res, notes)
        write_doc(out, report(res, jumbo, reps, seconds, notes))
        return 0
    finally:
        env.cleanup()


AB_RING = 4096


def ab_run(env, topo, pmd, refill, seconds):
    """One io window of testpmd on two net_mbufx_xdp ports with 4096-entry
    rings; refill: the rx_refill devarg, None for the build's default."""
    kw = {'rx_refill': refill} if refill else None
    args = ['--rxd=%d' % AB_RING, '--txd=%d' % AB_RING, '--total-num-mbufs=32768']
    busy = {}
    (rx, tx, cpp, _, el, drop), hl, (_, _, rcpp, _, _, _) = io_then_rxonly(
        env, topo, pmd, args, 'mbufx', kw, 'ab_%s_%d' % (refill or 'ref', env.nrun), seconds,
        busy)
    v = {'cpp': cpp, 'rxonly_cpp': rcpp, 'mpps': tx / el / 1e6,
         'offered_mpps': (rx + drop) / el / 1e6, 'hdr_lines': hl[1] if hl else None}
    v.update(syscall_split(busy))
    return v


# The data path's syscalls: (count xstat, TSC cycles inside it xstat).
SYSCALLS = (('tx_kicks', 'tx_kick_cycles'), ('tx_kicks_from_rx', 'tx_kick_from_rx_cycles'),
            ('rx_wakeups', 'rx_wakeup_cycles'))
SPLIT_KEYS = ('busy_cycles', 'busy_pkts', 'syscall_cpp', 'own_cpp', 'syscall_share',
              'syscall_cpp_idle', 'kicks_per_pkt', 'kicks_deferred_per_pkt',
              'pkts_per_kick_or_deferral', 'refill_from_pool_per_pkt',
              'refill_recycled_per_pkt', 'completed_to_pool_per_pkt', 'xstats_rx_pkts')


def syscall_split(busy):
    """testpmd's busy cycles of an io window (window(): iterations whose
    rx_burst returned packets, divided by the packets received on all
    ports) split into the kernel work inside the PMD's syscalls and the
    rest, the PMD's own cycles (with testpmd's io loop), per packet on that
    same packet count. Which syscalls run inside busy iterations, in io
    forwarding (rx_burst, then tx_burst only when it returned packets):
    - the Tx path's kicks (tx_kick_cycles): in tx_burst, always inside;
    - kicks sent from Rx polls (tx_kick_from_rx_cycles): inside when that
      poll returned packets: those of a port that received nothing in the
      window were all in idle iterations; a port that received is counted
      as inside (an upper bound);
    - Rx wakeups (rx_wakeup_cycles): only in polls that returned nothing,
      never inside.
    Those outside are reported per packet apart (syscall_cpp_idle). Every
    key of SPLIT_KEYS, None without the xstats (a build without them)."""
    out = dict.fromkeys(SPLIT_KEYS)
    xs = busy.get('xstats') or {}
    cyc, pkts = busy.get('cycles'), busy.get('pkts')
    if not cyc or not pkts or not xs or any(c not in x for x in xs.values()
                                            for _, c in SYSCALLS):
        return out
    def per_pkt(name):
        return round(sum(x.get(name, 0) for x in xs.values()) / pkts, 3)

    inside = outside = 0
    for x in xs.values():
        from_rx = x['tx_kick_from_rx_cycles']
        received = x.get('rx_good_packets', 0) > 0
        inside += x['tx_kick_cycles'] + (from_rx if received else 0)
        outside += x['rx_wakeup_cycles'] + (0 if received else from_rx)
    kicks = sum(x['tx_kicks'] for x in xs.values())
    deferred = sum(x.get('tx_kicks_deferred', 0) for x in xs.values())
    tx = sum(x.get('tx_good_packets', 0) for x in xs.values())
    out.update({'busy_cycles': cyc, 'busy_pkts': pkts,
                'syscall_cpp': round(inside / pkts, 1),
                'own_cpp': round((cyc - inside) / pkts, 1),
                'syscall_share': round(inside / cyc, 3),
                'syscall_cpp_idle': round(outside / pkts, 1),
                'kicks_per_pkt': round(kicks / pkts, 4),
                'kicks_deferred_per_pkt': round(deferred / pkts, 4),
                # every tx_burst with frames pending kicks or defers
                'pkts_per_kick_or_deferral': round(tx / (kicks + deferred), 2)
                if kicks + deferred else None,
                # where the refills' buffers came from: the pool, or Tx
                # completions of the queue's own pair (bench topology: port
                # 1 transmits, its pair receives nothing, its recycle ring
                # fills and completions go to the pool)
                'refill_from_pool_per_pkt': per_pkt('rx_late_refilled'),
                'refill_recycled_per_pkt': per_pkt('rx_late_recycled'),
                'completed_to_pool_per_pkt': per_pkt('tx_completed_to_pool'),
                'xstats_rx_pkts': sum(x.get('rx_good_packets', 0) for x in xs.values())})
    return out


def rx_icount(build, mode, packets=100000, burst=32, way='free'):
    """Instructions and simulated L1 data misses per packet of the PMD's
    receive loop (mbufx_xdp_rx_burst() inclusive: refill and completion)
    in one refill mode, under callgrind over the fake kernel
    (mbufx-xdp-rx-icount), in bursts of burst frames; way 'io' sends them
    out again (mbufx_xdp_tx_enqueue() inclusive: the Tx descriptors and
    completions, whose buffers the next refill posts). None without
    valgrind."""
    import shutil
    import tempfile
    exe = os.path.join(build, 'test', 'xdp', 'mbufx-xdp-rx-icount')
    if not shutil.which('valgrind') or not os.path.exists(exe):
        return None
    with tempfile.TemporaryDirectory() as d:
        cg = os.path.join(d, 'cg.out')
        subprocess.run(['valgrind', '--tool=callgrind', '--cache-sim=yes',
                        '--callgrind-out-file=' + cg, exe, '-l', '0', '--no-pci', '--no-huge',
                        '-m', '256', '--file-prefix=xdpab_cg_%d' % os.getpid(),
                        '--log-level=lib.eal:warning', '--', mode, str(packets), str(burst),
                        way],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        ann = subprocess.run(['callgrind_annotate', '--inclusive=yes', cg],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             check=True).stdout.decode()
    events = re.search(r'^Events shown:\s+(.*)$', ann, re.M).group(1).split()
    out = {}
    for line in ann.splitlines():
        m = re.search(r':(mbufx_xdp_rx_burst|mbufx_xdp_rx_convert|mbufx_xdp_rxq_refill|'
                      r'mbufx_xdp_tx_enqueue) ', line)
        if not m:
            continue
        cols = re.sub(r'\(\s*[\d.]+%\)', '', line.split('???:')[0]).split()
        v = dict(zip(events, [0 if c == '.' else int(c.replace(',', '')) for c in cols]))
        out[m.group(1)] = {'Ir': round(v.get('Ir', 0) / packets, 1),
                           'D1mw': round(v.get('D1mw', 0) / packets, 2),
                           'D1mr': round(v.get('D1mr', 0) / packets, 2)}
    return out


def zc_ab(build, reps=31, burst=32):
    """Late attach against the classic refill in the PMD's io path, timed,
    with the fake kernel playing a zero-copy NIC (mbufx-xdp-zc-bench: both
    modes in one process, interleaved; the device's work untimed). Returns
    {'late': {...}, 'classic': {...}, 'pairs': [...], 'note': str} with the
    medians of the TSC cycles per packet in rx_burst, tx_enqueue and both,
    or None without the program or EAL."""
    import shutil
    exe = os.path.join(build, 'test', 'xdp', 'mbufx-xdp-zc-bench')
    if not os.path.exists(exe):
        return None
    rt = ['chrt', '-f', '50'] if (os.environ.get('MBUFX_BENCH_RT') == '1' and
                                  shutil.which('chrt')) else []
    lcore = str(max(0, (os.cpu_count() or 1) - 1))
    eal = ['-l', lcore, '--no-pci', '--file-prefix=xdpzc_%d' % os.getpid(),
           '--log-level=lib.eal:warning']
    out = None
    # hugepages when there are any (as a PMD runs), else 4 KiB pages
    for mem in (['--huge-unlink'], ['--no-huge', '-m', '1024']):
        p = subprocess.run(rt + [exe] + eal + mem + ['--', str(reps), str(burst), 'dma'],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if p.returncode == 0:
            out = p.stdout.decode()
            break
    if out is None:
        print('zc A/B: mbufx-xdp-zc-bench failed: %s' % p.stdout.decode()[-500:])
        return None
    runs = {}
    head = ''
    for line in out.splitlines():
        f = line.split()
        if len(f) == 9 and f[0] == 'zc':
            runs.setdefault(f[2], []).append({'rx': float(f[4]), 'tx': float(f[6]),
                                              'hdr': float(f[8])})
        elif line.startswith('zc:'):
            head = line
    if not runs.get('late') or not runs.get('classic'):
        return None
    res = {m: {k: round(median([r[k] for r in v]), 2) for k in ('rx', 'tx', 'hdr')}
           for m, v in runs.items()}
    for m, v in runs.items():
        res[m]['sum'] = round(median([r['rx'] + r['tx'] for r in v]), 2)
    # the same repetition's two runs are neighbours in time
    res['pairs'] = [round((c['rx'] + c['tx']) / (l['rx'] + l['tx']), 3)
                    for l, c in zip(runs['late'], runs['classic'])]
    res['note'] = head
    res['runs'] = runs
    return res


def ab_rows(med, counts, own_pairs=(), io_counts=None, zc=None):
    """The A/B in the report's row schema: late attach as "mbufx", classic
    refill as the baseline."""
    rows = []

    def row(case, metric, late, classic, better='lower', target=None, note=''):
        rows.append({'case': case, 'metric': metric, 'better': better,
                     'values': {'mbufx': late, 'classic refill': classic},
                     'baseline': 'classic refill', 'target': target, 'note': note})
    row('64 B io: forwarding-core cycles per packet (rx_burst + tx_burst)', 'cycles/pkt',
        med['late']['cpp'], med['classic']['cpp'], target=1.10,
        note='includes the sendto() kick of every Tx burst (kernel copy mode)')
    if med['late'].get('own_cpp') and med['classic'].get('own_cpp'):
        row('64 B io: PMD cycles per packet without the kernel\'s syscall work '
            '(forwarding-core cycles - sendto/recvfrom cycles, per packet)', 'cycles/pkt',
            med['late']['own_cpp'], med['classic']['own_cpp'], target=1.10,
            note='xstats tx_kick_cycles (+ tx_kick_from_rx_cycles of a port that received) '
                 'over testpmd\'s busy cycles and packets; classic/late per repetition %s-%s' %
                 (min(own_pairs, default='-'), max(own_pairs, default='-')))
        row('64 B io: cycles per packet inside the data path\'s syscalls', 'cycles/pkt',
            med['late']['syscall_cpp'], med['classic']['syscall_cpp'],
            note='share of the busy cycles: late %s, classic %s; the Tx copy of copy mode' %
                 (med['late']['syscall_share'], med['classic']['syscall_share']))
    if zc:
        row('zero-copy NIC, simulated (fake kernel): PMD cycles per packet '
            '(rx_burst + tx_enqueue), 64 B, bursts of 32', 'cycles/pkt',
            zc['late']['sum'], zc['classic']['sum'], target=1.10,
            note='mbufx-xdp-zc-bench: the same driver code over a fake kernel whose device '
                 'writes frames as DMA (non-temporal whole lines) and completes at once; '
                 'device work and kick untimed; classic/late per repetition %s-%s' %
                 (min(zc['pairs']), max(zc['pairs'])))
        row('zero-copy NIC, simulated: rx_burst cycles per packet', 'cycles/pkt',
            zc['late']['rx'], zc['classic']['rx'],
            note='header lines written per packet: late %s, classic %s' %
                 (zc['late']['hdr'], zc['classic']['hdr']))
        row('zero-copy NIC, simulated: tx_enqueue cycles per packet', 'cycles/pkt',
            zc['late']['tx'], zc['classic']['tx'],
            note='the same code in both modes (completions, descriptors)')
    row('64 B rxonly: cycles per packet (rx_burst + free)', 'cycles/pkt',
        med['late']['rxonly_cpp'], med['classic']['rxonly_cpp'])
    row('64 B io: forwarded rate', 'Mpps', med['late']['mpps'], med['classic']['mpps'],
        better='higher', note='bounded by the generator: equal rates are expected')
    row('mbuf header lines written per received packet', 'lines/pkt',
        med['late']['hdr_lines'], med['classic']['hdr_lines'], note='the port\'s xstat')
    for fn, what in (('mbufx_xdp_rx_burst', 'receive loop'),
                     ('mbufx_xdp_rxq_refill', 'fill-ring refill')):
        late, classic = counts['late'].get(fn), counts['classic'].get(fn)
        if not late or not classic:
            continue
        row('%s (%s), callgrind' % (what, fn), 'instructions/pkt', late['Ir'], classic['Ir'],
            note='4096-entry ring, 64 B, load-independent')
        row('%s (%s), cachegrind' % (what, fn), 'simulated L1 write misses/pkt',
            late['D1mw'], classic['D1mw'])
    for burst, c in sorted((io_counts or {}).items(), reverse=True):
        pair = [{k: sum(c[m].get(fn, {}).get(k, 0) for fn in IO_FNS) for k in ('Ir', 'D1mw')}
                for m in ('late', 'classic')]
        if not all(p['Ir'] for p in pair):
            continue
        row('io path (rx_burst + tx_enqueue), callgrind, bursts of %d' % burst,
            'instructions/pkt', round(pair[0]['Ir'], 1), round(pair[1]['Ir'], 1),
            note='mbufx-xdp-rx-icount io: Tx on a queue paired with another Rx queue, '
                 'completions to the pool, refill from the pool, as this topology does; no '
                 'kick; load-independent')
        row('io path (rx_burst + tx_enqueue), cachegrind, bursts of %d' % burst,
            'simulated L1 write misses/pkt', round(pair[0]['D1mw'], 2),
            round(pair[1]['D1mw'], 2))
    return rows


# the PMD's io path under callgrind: the receive loop and the Tx burst's
# enqueue (inclusive: each counts its callees, disjoint)
IO_FNS = ('mbufx_xdp_rx_burst', 'mbufx_xdp_tx_enqueue')
IO_BURSTS = (32, 2)


def ab(build, out, reps, seconds, ref=None):
    env = Env(build, 'xdpab')
    variants = [('late', build, 'late'), ('classic', build, 'classic')]
    if ref:
        variants.append(('ref', os.path.abspath(ref), None))
    res = {}
    load0 = loadavg()
    try:
        for _, b, _ in variants:
            Pmd('mbufx_xdp', b).require()
        with topology(env, 60, mtu=1500) as topo:
            for r in range(reps):
                # interleaved, the order rotated every repetition
                order = variants[r % len(variants):] + variants[:r % len(variants)]
                for name, b, refill in order:
                    v = ab_run(env, topo, Pmd('mbufx_xdp', b), refill, seconds)
                    res.setdefault(name, []).append(v)
                    print('  64 B rep %d %-7s io %s cyc/pkt, %.3f Mpps (offered %.3f), '
                          'rxonly %s cyc/pkt, hdr lines/pkt %s; io: syscalls %s cyc/pkt '
                          '(share %s), PMD own %s cyc/pkt, kicks/pkt %s' %
                          (r + 1, name, fmt(v['cpp']), v['mpps'], v['offered_mpps'],
                           fmt(v['rxonly_cpp']), v['hdr_lines'], fmt(v['syscall_cpp']),
                           v['syscall_share'], fmt(v['own_cpp']), v['kicks_per_pkt']),
                          flush=True)
        med = {n: {m: median([x[m] for x in runs])
                   for m in ('cpp', 'rxonly_cpp', 'mpps', 'hdr_lines') + SPLIT_KEYS[2:-1]}
               for n, runs in res.items()}
        # the same repetition's two runs are neighbours in time: their
        # ratio shows the spread the machine's load gives
        own_pairs = [round(c['own_cpp'] / l['own_cpp'], 3)
                     for l, c in zip(res['late'], res['classic'])
                     if l['own_cpp'] and c['own_cpp']]
        own_ratio = (med['classic']['own_cpp'] / med['late']['own_cpp']
                     if med['late']['own_cpp'] and med['classic']['own_cpp'] else None)
        counts = {m: rx_icount(build, m) for m in ('late', 'classic')}
        print('receive loop per packet under callgrind (Ir, L1 write/read misses): %s' %
              counts)
        # the io path at full bursts and at the one or two frames per poll
        # the port sees at the kernel's copy-mode rate
        io_counts = {b: {m: rx_icount(build, m, burst=b, way='io') or {}
                         for m in ('late', 'classic')} for b in IO_BURSTS}
        print('io path per packet under callgrind, by burst size: %s' % io_counts)
        zc = zc_ab(build)
        if zc:
            print('simulated zero-copy NIC, cycles per packet (rx_burst, tx_enqueue, both): '
                  'late %s, classic %s; classic / late %.3f, per repetition %s' %
                  (zc['late'], zc['classic'], zc['classic']['sum'] / zc['late']['sum'],
                   zc['pairs']))
        ratio = (med['classic']['cpp'] / med['late']['cpp']
                 if med['late']['cpp'] and med['classic']['cpp'] else None)
        doc = {'bench': 'xdp_ab',
               'title': 'AF_XDP: late attach vs classic refill, net_mbufx_xdp on one veth '
                        'pair (testpmd io, 64 B, 4096-descriptor rings)',
               'env': {'repetitions': '%d, interleaved, medians' % reps,
                       'window': '%.1f s io after 0.5 s warm-up' % seconds,
                       'variants': {n: '%s rx_refill=%s' % (b, m or 'default')
                                    for n, b, m in variants},
                       'scheduling': ('router under SCHED_FIFO (MBUFX_BENCH_RT=1)'
                                      if os.environ.get('MBUFX_BENCH_RT') == '1' else
                                      'normal'),
                       'syscalls': 'TSC cycles inside the PMD\'s sendto()/recvfrom() '
                                   '(xstats tx_kick_cycles, tx_kick_from_rx_cycles, '
                                   'rx_wakeup_cycles) taken out of testpmd\'s busy cycles '
                                   'when they ran in busy iterations (syscall_split()), per '
                                   'packet on testpmd\'s packet count',
                       'load': {'before': load0, 'after': loadavg()}},
               'medians': med, 'classic_over_late_cpp': ratio, 'target': 1.10,
               'classic_over_late_own_cpp': own_ratio,
               'own_cpp_ratio_per_rep': own_pairs,
               'rx_loop_per_packet_callgrind': counts,
               'io_path_per_packet_callgrind': io_counts,
               'zc_sim': zc,
               'rows': ab_rows(med, counts, own_pairs, io_counts, zc),
               'runs': res}
        print('medians: %s; classic / late cycles per packet: %s (target >= 1.10)' %
              (med, '-' if ratio is None else '%.3f' % ratio))
        for n in med:
            print('  %-7s io cycles/pkt %s = syscalls %s (share %s) + PMD own %s; '
                  'outside busy iterations %s' %
                  (n, fmt(med[n]['cpp']), fmt(med[n]['syscall_cpp']), med[n]['syscall_share'],
                   fmt(med[n]['own_cpp']), fmt(med[n]['syscall_cpp_idle'])))
        print('classic / late PMD own cycles per packet (syscall work taken out): %s '
              '(target >= 1.10); per repetition %s' %
              ('-' if own_ratio is None else '%.3f' % own_ratio, own_pairs))
        if out:
            write_doc(out, doc)
        return 0
    finally:
        env.cleanup()


def two_queue_runs(env, reps, seconds, tsc, res):
    """64-byte frames of many flows over two-queue veths, queue_count=2, on
    ours: DPDK 22.11's net_af_xdp takes queue_count from the ethtool
    "combined" channels, which a veth does not have ("Specified queue count
    2 is larger than combined queue count 1")."""
    with topology(env, None, mtu=1500, queues=2) as topo, \
            generating(env, topo, 60, multi_flow=True):
        for r in range(reps):
            v = one_run(env, topo, 'mbufx_xdp', 'mbufx', 60, seconds, tsc, queues=2)
            res.setdefault((64, 'mbufx_xdp/2q', 'mbufx'), []).append(v)
            print('    64 B rep %d mbufx_xdp two queues io %.3f Mpps %s cyc/pkt' %
                  (r + 1, v['mpps'], fmt(v['cpp'])), flush=True)


def jumbo_runs(env, reps, seconds, tsc, res, notes):
    """9000-byte frames: ours forwards them; the stock PMD cannot attach."""
    with topology(env, None, mtu=9000) as topo:
        stock = Testpmd(env, topo, Pmd('af_xdp', env.build), [], name='stock9000')
        stock.wait_for('testpmd> ', timeout=30)
        log = stock.log()
        stock.quit(strict=False)
        err = [ln for ln in log.splitlines() if 'MTU' in ln or 'xdp' in ln.lower()]
        notes.append('net_af_xdp at MTU 9000: ' + ('; '.join(err[-3:]) or 'started'))
        with generating(env, topo, 9000):
            for r in range(reps):
                for pool in ('mbufx', 'ring'):
                    v = one_run(env, topo, 'mbufx_xdp', pool, 9000, seconds, tsc)
                    res.setdefault((9000, 'mbufx_xdp', pool), []).append(v)
                    print('  9000 B rep %d mbufx_xdp %-5s io %.3f Mpps %s cyc/pkt' %
                          (r + 1, pool, v['mpps'], fmt(v['cpp'])), flush=True)
    return True


def measure_tsc():
    """TSC frequency from the kernel's log line or /proc/cpuinfo (MHz)."""
    try:
        out = subprocess.run(['dmesg'], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout.decode()
        m = re.search(r'tsc: Refined TSC clocksource calibration: ([\d.]+) MHz', out) or \
            re.search(r'tsc: Detected ([\d.]+) MHz', out)
        if m:
            return float(m.group(1)) * 1e6
    except OSError:
        pass
    with open('/proc/cpuinfo') as f:
        m = re.search(r'cpu MHz\s*:\s*([\d.]+)', f.read())
    return float(m.group(1)) * 1e6 if m else 0.0


def fmt(v):
    return '-' if v is None else '%.0f' % v


def report(res, jumbo, reps, seconds, notes):
    rows = []

    def vals(size, metric, kinds=('mbufx_xdp', 'af_xdp'), pools=('mbufx', 'ring')):
        out = {}
        for k in kinds:
            for p in pools:
                runs = res.get((size, k, p))
                if runs:
                    name = ('mbufx' if (k, p) == ('mbufx_xdp', 'mbufx') else
                            '%s/%s' % ('net_mbufx_xdp' if k == 'mbufx_xdp' else 'net_af_xdp',
                                       'ring' if p == 'ring' else 'mbufx pool'))
                    m = median([r.get(metric) for r in runs])
                    if m is not None:
                        out[name] = m
        return out

    base = 'net_af_xdp/mbufx pool'   # same pool: the rows compare the PMDs
    for size in (64, 1518):
        for runs in [res.get((size, k, p)) for k in ('mbufx_xdp', 'af_xdp')
                     for p in ('mbufx', 'ring')]:
            for r in runs or []:
                r['total_cpp'] = (r['cpp'] + r['kernel_cpp']
                                  if r['cpp'] is not None and r['kernel_cpp'] is not None
                                  else None)
                r['hdr_lines'] = r['hdr'][1] if r['hdr'] else None
        for metric, better, target, what in (
                ('cpp', 'lower', 1.15 if size == 64 else None,
                 'io: forwarding-core cycles per packet (rx_burst + tx_burst)'),
                ('rxonly_cpp', 'lower', None, 'rxonly: cycles per packet (rx_burst + free)'),
                ('mpps', 'higher', 1.0 if size == 64 else None, 'io: forwarded Mpps'),
                ('rx_loss', 'lower', None, 'io: share of offered frames lost at Rx (imissed)'),
                ('kernel_cpp', 'lower', None,
                 'io: kernel cycles per packet (sys + softirq, both CPUs)'),
                ('total_cpp', 'lower', None, 'io: forwarding core + kernel, cycles per packet'),
                ('hdr_lines', 'lower', None, 'mbuf header cache lines written per Rx packet')):
            v = vals(size, metric)
            if not v:
                continue
            note = ''
            if metric == 'cpp':
                note = 'both PMDs on the mbufx pool (ratio), and on ring pools'
            elif metric == 'hdr_lines':
                note = ('xstat rx_hdr_lines_written / rx_good_packets; net_af_xdp has no '
                        'counter (its refill resets the header, completion writes it again)')
            rows.append({'case': 'AF_XDP veth, %d B: %s' % (size, what),
                         'metric': ('cycles/pkt' if 'cpp' in metric else
                                    'fraction' if metric == 'rx_loss' else
                                    'lines/pkt' if metric == 'hdr_lines' else 'Mpps'),
                         'better': better, 'values': v,
                         'baseline': base if base in v else None, 'target': target,
                         'note': note})
    v = {}
    for k in ('mbufx_xdp', 'af_xdp'):
        m = median([r.get('cpp') for r in res.get((64, k + '/2q', 'mbufx'), [])])
        if m is not None:
            v['mbufx' if k == 'mbufx_xdp' else base] = m
    if v:
        rows.append({'case': 'AF_XDP veth, 64 B, two queues: io forwarding-core cycles '
                             'per packet', 'metric': 'cycles/pkt', 'better': 'lower',
                     'values': v, 'baseline': base if base in v else None, 'target': None,
                     'note': 'queue_count=2 on two-queue veths, testpmd --rxq=2 --txq=2 '
                             'on one forwarding core; the generator\'s '
                             '--txonly-multi-flow spreads the flows over both queues; '
                             'net_af_xdp (22.11) refuses two queues on a veth (it needs '
                             'ethtool combined channels)'})
    v = vals(9000, 'mpps', kinds=('mbufx_xdp',))
    if v:
        rows.append({'case': 'AF_XDP veth, 9000 B: forwarded Mpps (ours only)',
                     'metric': 'Mpps', 'better': 'higher', 'values': v, 'baseline': None,
                     'note': 'net_af_xdp cannot attach at MTU 9000 (see env); frames '
                             'checked byte for byte by test/xdp (l3fwd_kernel, testpmd_modes)'})
    raw = {'%d/%s/%s' % k: v for k, v in res.items()}
    return {'bench': 'xdp', 'runs': raw,
            'title': 'AF_XDP: net_mbufx_xdp vs DPDK net_af_xdp on a veth pair '
                     '(dpdk-testpmd io/rxonly)',
            'env': {'topology': 'host A (testpmd txonly on net_af_packet, lcore 0) -> veth -> '
                                'router testpmd (2 AF_XDP ports, forwarding lcore 1) -> veth '
                                '-> host B kernel (dropped: not its MAC)',
                    'repetitions': '%d, interleaved per PMD and pool, medians' % reps,
                    'window': '%.1f s io then %.1f s rxonly per run, after 0.5 s warm-up' %
                              (seconds, seconds),
                    'pool': '--total-num-mbufs=8192, 2176-byte mbufs (9344 at 9000 B); '
                            'mbufx = -d librte_mempool_mbufx.so --mbuf-pool-ops-name=mbufx',
                    'cycles': 'testpmd --record-core-cycles: TSC cycles of the forwarding '
                              'iterations that received packets, per packet (a preempted '
                              'iteration counts its wall time: shared machine)',
                    'scheduling': ('router under SCHED_FIFO (MBUFX_BENCH_RT=1)'
                                   if os.environ.get('MBUFX_BENCH_RT') == '1' else
                                   'normal (set MBUFX_BENCH_RT=1 for SCHED_FIFO: preemption '
                                   'otherwise inflates cycles/packet)'),
                    'kernel side': 'copy mode on veth: the copy into the UMEM runs in the '
                                   'sender\'s softirq (generator CPU), Tx copies inside the '
                                   'router\'s sendto() kick; both are in "kernel cycles"',
                    'notes': ' | '.join(notes)},
            'rows': rows}


def demo(build, seconds, strict=False):
    """Host A's ping and UDP routed by mbufx-l3fwd over AF_XDP, live.

    strict (a test): every ping and datagram must come back and the router
    must drop nothing: trains of jumbo frames put several multi-descriptor
    frames in one TX burst, which must take them, not refuse them as
    "tx_full")."""
    from xdpnet import HOST_A, udp_socket
    env = Env(build, 'xdpdemo')
    try:
        pmd = Pmd('mbufx_xdp', build)
        pmd.require()
        with topology(env, None, mtu=9000) as topo:
            r = l3fwd(env, topo, pmd, jumbo=True, extra=['-T', '1'])
            print('netns %s (host A, %s) --veth-- netns %s: mbufx-l3fwd on net_mbufx_xdp0/1 '
                  '--veth-- netns %s (host B, %s)' % (topo.ns['A'], HOST_A, topo.ns['R'],
                                                      topo.ns['B'], HOST_B))
            shown = 0
            ua, ub = udp_socket(topo, 'A', 5001), udp_socket(topo, 'B', 5002)
            ub.settimeout(0.5)
            end = time.time() + seconds
            i = 0
            lost = []
            try:
                while time.time() < end:
                    pings = []
                    for size in (56, 1472, 8972):
                        pings.append('%d B %d/10' % (size, topo.ping('A', HOST_B, count=10,
                                                                     size=size,
                                                                     interval=0.01)))
                    sent = got = 0
                    for _ in range(200):
                        ua.sendto(b'x' * 1400, (HOST_B, 5002))
                        sent += 1
                    try:
                        while got < sent:
                            ub.recvfrom(2048)
                            got += 1
                    except OSError:
                        pass
                    lost += [p for p in pings if not p.endswith(' 10/10')]
                    if got < sent:
                        lost.append('UDP %d/%d' % (got, sent))
                    print('  host A -> %s: ping %s; UDP 1400 B %d/%d datagrams' %
                          (HOST_B, ', '.join(pings), got, sent), flush=True)
                    log = r.log()
                    for line in log[shown:].splitlines():
                        if line.startswith('['):
                            print('  l3fwd ' + line.strip(), flush=True)
                    shown = len(log)
                    i += 1
            finally:
                ua.close()
                ub.close()
            s = finish_l3fwd(r)
            log = r.log()
            print(log[log.find('=== summary'):log.find('routes (')].rstrip())
            print('demo: %d packets routed over AF_XDP, every mbuf back in its zone' %
                  s['rx_pkts'])
            drops = {k: v for k, v in s['drops'].items() if v}
            if strict and (lost or drops):
                print('demo: FAIL: lost %s, router drops %s' % (lost, drops))
                return 1
    finally:
        env.cleanup()
    return 0


def main(argv):
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument('what', choices=('bench', 'ab', 'zc', 'demo'))
    ap.add_argument('build')
    ap.add_argument('out', nargs='?')
    ap.add_argument('--reps', type=int, default=3)
    ap.add_argument('--seconds', type=float, default=2.0)
    ap.add_argument('--ref', help='ab: another build, run in its default mode')
    ap.add_argument('--strict', action='store_true',
                    help='demo: fail on any lost ping or datagram or router drop')
    a = ap.parse_args(argv)
    try:
        if a.what == 'bench':
            return bench(a.build, a.out, a.reps, a.seconds)
        if a.what == 'ab':
            return ab(a.build, a.out, a.reps, a.seconds, a.ref)
        if a.what == 'zc':
            zc = zc_ab(a.build, reps=a.reps)
            if zc is None:
                return 1
            print('late %s\nclassic %s\nclassic / late (rx_burst + tx_enqueue) %.3f, per '
                  'repetition %s' % (zc['late'], zc['classic'],
                                     zc['classic']['sum'] / zc['late']['sum'], zc['pairs']))
            return 0
        return demo(a.build, a.seconds, a.strict)
    except Skip as e:
        print('%s: skipped: %s' % (a.what, e))
        return 77


if __name__ == '__main__':
    import signal
    # a timeout or ^C unwinds through the finally blocks (namespaces removed)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit('SIGTERM: stopped'))
    sys.exit(main(sys.argv[1:]))
