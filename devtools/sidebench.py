#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""mbufx-l3fwd side by side with DPDK's own l3fwd example on the same ports.

Three forwarders, one at a time, interleaved in turns of a few seconds (the
order rotates every round), each on its own pair of vhost-user ports fed by its
own copy of the same generator:

  mbufx-l3fwd    this tree's router (mbufx zones, RFC 1812 checks)
  l3fwd          DPDK 22.11's l3fwd example, built from the installed dpdk-doc
                 sources by devtools/stock-l3fwd.sh (Rx offloads masked to what
                 the port offers, nothing else changed), stock ring_mp_mc pool
  l3fwd+mbufx    the same l3fwd binary on our mempool driver (-d plugin,
                 --mbuf-pool-ops-name=mbufx)

Generator: dpdk-testpmd (io forwarding, one lcore) replays a capture forever
from net_pcap into virtio-user port 1; the forwarder receives it on vhost-user
port 0 (vhost copies each frame like NIC DMA), routes 198.18.1.0/24 to port 1,
and testpmd counts it on virtio-user port 2, then frees it. The generator never
sends a forwarded frame back: every frame the forwarder sees is a fresh copy of
the capture, so TTLs and checksums are as captured for every forwarder (a
closed loop would have to restore them on its return path).

Pools and descriptors, the same on both sides: 8192 mbufs of 2176 B with a
256-object per-lcore cache (l3fwd's NB_MBUF floor for one lcore and two ports),
1024 Rx and 1024 Tx descriptors, bursts of 32; mbufx-l3fwd also has its 2048
jumbo-zone mbufs (9344 B: a 9000 B frame in one segment, where l3fwd gets a
chain of five 2K mbufs) and 1024 header-zone mbufs (unused when forwarding
unicast).

Turns (devtools/turns.py): per size, the three forwarders and their
generators are started once and then take turns on the two CPUs, SIGSTOP /
SIGCONT on their process groups:
one pair runs for --seconds while the other two are stopped, --reps rounds.
This host changes speed below the guest's scheduler for tens of seconds at a
time (the same binary at 4.2 or 6.6 Mpps with both processes at a full CPU);
runs of 20 s one after the other put whole phases on one forwarder, turns of
a few seconds spread every phase over all three.

Measurement (devtools/turns.py, shared with `make demo`): one sample a
second, testpmd's rate of port 2 (frames forwarded) with the CPU share of the
generator and of the forwarder over that second; the first print of a turn
spans the stop and is dropped; a sample is clean when both had at least 0.97
of a CPU. Per size and forwarder: the median of all samples, and the median
over clean samples with their count; the ratios of both against stock l3fwd.

The forwarders run at normal priority even under MBUFX_BENCH_RT=1: the
forwarders of a size are all started at once on the same core and take turns,
and under SCHED_FIFO the first one's polling loop keeps the others from ever
creating their vhost-user sockets.

Then, load-independent: each forwarder under valgrind --tool=callgrind on the
same vhost pair (64 B: all three; 1518 and 9000 B: mbufx-l3fwd and l3fwd),
instructions per forwarded frame of its lcore loop and everything it calls,
split by object (the forwarder's binary, the vhost PMD and library, the
mempool drivers, the rest). The generator runs at full speed outside
valgrind, so every poll of the slowed forwarder finds a full burst.

    sidebench.py BUILD_DIR --out FILE.json [--reps N] [--seconds S] [--sizes ...]
                 [--callgrind-seconds S] [--callgrind-sizes ...]
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', 'test', 'apps'))

from apptest import Env, Fail, Skip, have_hugepages  # noqa: E402
from fwdbench import retried, start_generator, write_captures, write_doc  # noqa: E402
from turns import (CLEAN, gen_tx_drop, kill_from, med, side_stats, stop_pair,  # noqa: E402
                   take_turns, wait_traffic)

FORWARDERS = ('mbufx-l3fwd', 'l3fwd', 'l3fwd+mbufx')
BASE = 'l3fwd'
SIZES = ('64', 'imix', '1518', '9000')
# at least DPDK's l3fwd at every size; 9000 B: the one jumbo segment against
# l3fwd's chain of five
TARGETS = {'64': 1.0, 'imix': 1.0, '1518': 1.0, '9000': 1.15}
NB_MBUF = 8192
MBUFX_POOL = ['--mbufs', str(NB_MBUF), '--jumbo-mbufs', '2048', '--hdr-mbufs', '1024',
              '--rx-queue-size', '1024', '--tx-queue-size', '1024']
POOL_DESC = ('both: 8192 mbufs x 2176 B, per-lcore cache 256, 1024 Rx / 1024 Tx '
             'descriptors, burst 32; mbufx-l3fwd also 2048 jumbo (9344 B) and 1024 '
             'header mbufs; generator: testpmd, 16384 mbufs (9344 B for 9000 B frames)')
def fwd_cmd(env, kind, stock, s0, s1, jumbo, huge=True):
    vdev = ['--vdev', 'net_vhost0,iface=%s,queues=1' % s0,
            '--vdev', 'net_vhost1,iface=%s,queues=1' % s1]
    mtu = ['--max-pkt-len', '9018'] if jumbo else []
    if kind == 'mbufx-l3fwd':
        return [env.l3fwd] + env.eal('1', 320, huge=huge) + vdev + [
            '--', '-p', '3', '-T', '1', '--link-wait', '30'] + MBUFX_POOL + mtu, None
    cmd = [stock] + env.eal('1', 320, huge=huge) + vdev
    extra = None
    if kind == 'l3fwd+mbufx':
        cmd += ['-d', 'librte_mempool_mbufx.so', '--mbuf-pool-ops-name=mbufx']
        extra = env.testpmd_env()
    return cmd + ['--', '-p', '3', '--config', '(0,0,1),(1,0,1)', '--parse-ptype'] + mtu, extra


def start_pair(env, caps, stock, case, kind):
    """Forwarder kind and its own generator on their own vhost pair, started,
    carrying traffic, then stopped (SIGSTOP) until its turn."""
    testpmd = shutil.which('dpdk-testpmd')
    tag = 'side_%s_%s_%d' % (case, kind.replace('+', '_'), env.nrun)
    s0, s1 = env.path(tag + '0.sock'), env.path(tag + '1.sock')
    cmd, fenv = fwd_cmd(env, kind, stock, s0, s1, case == '9000')
    fwd = env.start(cmd, env=fenv, log=tag + '_fwd.log')
    gen = start_generator(env, testpmd, caps, case, fwd, kind, s0, s1, tag + '_gen.log',
                          wait_s=30)
    wait_traffic(env, kind, fwd, gen)
    return fwd, gen


def run_size(env, caps, stock, case, turns, seconds):
    """Every forwarder with its generator, taking turns of @p seconds on the
    two CPUs (the others stopped), the order rotating every round: all see
    the same host in the same minute. @return runs[kind] = [run dicts]."""
    started = len(env.procs)
    pairs = {}
    try:
        for kind in FORWARDERS:
            pairs[kind] = retried(start_pair, env, caps, stock, case, kind)
        runs = take_turns(env, pairs, FORWARDERS, turns, seconds, case)
        for kind in FORWARDERS:
            fwd, gen = pairs[kind]
            stop_pair(env, fwd, gen)
            lg, lf = env.log(gen), env.log(fwd)
            if fwd.returncode != 0:
                raise Fail('%s exited %d:\n%s' % (kind, fwd.returncode, lf[-3000:]))
            if kind == 'mbufx-l3fwd' and 'LEAK' in lf:
                raise Fail('mbufx-l3fwd leaked:\n%s' % lf[-3000:])
            if runs[kind]:
                runs[kind][-1]['gen_tx_drop'] = gen_tx_drop(lg)
            if not any(r['samples'] for r in runs[kind]):
                raise Fail('%s: no traffic measured:\n%s' % (kind, lf[-2000:]))
        return runs
    finally:
        kill_from(env, started)


# Under callgrind: the function whose instructions count (the lcore loop and
# all it calls, PMD and vhost library included) and how objects are grouped.
CG_LOOP = {'mbufx-l3fwd': 'l3fwd_lcore_main', 'l3fwd': 'lpm_main_loop',
           'l3fwd+mbufx': 'lpm_main_loop'}
CG_GROUPS = (('forwarder', ('mbufx-l3fwd', 'l3fwd-shared', 'libmbufx')),
             ('vhost', ('librte_vhost', 'librte_net_vhost')),
             ('mempool', ('librte_mempool',)))
CG_FN_RE = re.compile(r'^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?\S*?:.*\[(.+)\]\s*$')
RXPKTS_RE = re.compile(r'NIC statistics for port 2\s.*?RX-packets:\s+(\d+)', re.S)


def cg_by_object(path):
    """Self instructions of a callgrind profile grouped as CG_GROUPS (+ other)."""
    p = subprocess.run(['callgrind_annotate', '--threshold=100', '--inclusive=no', path],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       universal_newlines=True)
    groups = {g: 0 for g, _ in CG_GROUPS}
    groups['other'] = 0
    total = None
    for line in p.stdout.splitlines():
        if 'PROGRAM TOTALS' in line:
            total = int(line.split()[0].replace(',', ''))
            continue
        m = CG_FN_RE.match(line)
        if not m:
            continue
        ir, obj = int(m.group(1).replace(',', '')), os.path.basename(m.group(2))
        for g, names in CG_GROUPS:
            if any(obj.startswith(n) for n in names):
                groups[g] += ir
                break
        else:
            groups['other'] += ir
    return total, groups


def run_callgrind(env, caps, stock, case, kind, seconds):
    """Instructions per forwarded packet of one forwarder under callgrind on
    the vhost pair: the generator (not under valgrind) always has a full
    burst waiting, so there are no empty polls and the count does not depend
    on the machine's load. {'total': x, group: x, ...} per packet."""
    started = len(env.procs)
    tag = 'cg_%s_%s_%d' % (case, kind.replace('+', '_'), env.nrun)
    s0, s1, out = env.path(tag + '0.sock'), env.path(tag + '1.sock'), env.path(tag + '.cg')
    cmd, fenv = fwd_cmd(env, kind, stock, s0, s1, case == '9000', huge=False)
    cmd = ['valgrind', '--tool=callgrind', '--collect-atstart=no',
           '--toggle-collect=' + CG_LOOP[kind], '--callgrind-out-file=' + out] + cmd
    try:
        fwd = env.start(cmd, env=fenv, log=tag + '_fwd.log')
        gen = start_generator(env, shutil.which('dpdk-testpmd'), caps, case, fwd, kind, s0,
                              s1, tag + '_gen.log', wait_s=120)
        deadline = time.time() + 120
        while time.time() < deadline and not RXPKTS_RE.findall(env.log(gen)):
            if fwd.poll() is not None or gen.poll() is not None:
                break
            time.sleep(0.5)
        time.sleep(seconds)
        env.stop(fwd, signal.SIGINT, timeout=120)
        time.sleep(2.5)         # one more stats line of testpmd after the last frame
        pk = [int(x) for x in RXPKTS_RE.findall(env.log(gen))]
        env.stop(gen, signal.SIGINT)
        if fwd.returncode != 0 or not pk or pk[-1] == 0:
            raise Fail('%s under callgrind: rc %s, no packets counted:\n%s' % (
                kind, fwd.returncode, env.log(fwd)[-2000:]))
        total, groups = cg_by_object(out)
        if not total:
            raise Fail('%s under callgrind: no totals in %s' % (kind, out))
        r = {g: v / pk[-1] for g, v in groups.items()}
        r['total'] = total / pk[-1]
        r['pkts'] = pk[-1]
        return r
    finally:
        for p in env.procs[started:]:
            if p.poll() is None:
                env.stop(p, signal.SIGKILL, timeout=5)


def callgrind_rows(env, caps, stock, seconds, sizes):
    """Rows: instructions per forwarded packet, whole loop and by object."""
    rows = []
    for case in sizes:
        kinds = FORWARDERS if case == '64' else ('mbufx-l3fwd', 'l3fwd')
        res = {k: run_callgrind(env, caps, stock, case, k, seconds) for k in kinds}
        label = 'IMIX' if case == 'imix' else '%s B' % case
        for k in kinds:
            print('  %-5s %-12s callgrind: %.0f instructions/pkt (%s; %d pkts)' % (
                case, k, res[k]['total'], ', '.join('%s %.0f' % (g, res[k][g]) for g in
                                                     [g for g, _ in CG_GROUPS] + ['other']),
                res[k]['pkts']), flush=True)
        for key, metric in (('total', 'instructions/pkt, whole loop (callgrind)'),
                            ('forwarder', 'instructions/pkt, forwarder code (callgrind)')):
            vals = {('mbufx' if k == 'mbufx-l3fwd' else k): round(res[k][key], 1)
                    for k in kinds}
            a, b = res['mbufx-l3fwd'][key], res[BASE][key]
            rows.append({
                'case': 'vhost-user %s vs DPDK l3fwd, callgrind' % label, 'metric': metric,
                'better': 'lower', 'values': vals, 'baseline': BASE,
                'ratio': round(b / a, 3) if a else None,
                'note': 'per forwarded frame, under valgrind --tool=callgrind (load-'
                        'independent); by object: %s' % '; '.join(
                            '%s: %s' % (k, ', '.join('%s %.0f' % (g, res[k][g]) for g in
                                                     [g for g, _ in CG_GROUPS] + ['other']))
                            for k in kinds) if key == 'total' else
                        'the forwarder\'s own binary: parsing, checks, lookup, rewrite, '
                        'Tx buffering and the inlined mbuf/mempool fast paths'})
    return rows


def summarise(case, runs):
    """Rows of one size from runs[kind] = [run dicts]."""
    stats = {kind: side_stats(runs[kind]) for kind in FORWARDERS}
    label = 'IMIX' if case == 'imix' else '%s B' % case
    rows = []
    for metric, key in (('Mpps, median of all samples', 'median'),
                        ('Mpps, median of clean samples', 'clean'),
                        ('Mpps per CPU of the forwarder', 'per_cpu')):
        vals = {('mbufx' if k == 'mbufx-l3fwd' else k):
                (round(stats[k][key], 3) if stats[k][key] is not None else None)
                for k in FORWARDERS}
        a, b = stats['mbufx-l3fwd'][key], stats[BASE][key]
        ratio = round(a / b, 3) if a and b else None
        r = {'case': 'vhost-user %s vs DPDK l3fwd' % label, 'metric': metric,
             'better': 'higher', 'values': vals, 'baseline': BASE, 'ratio': ratio}
        if key == 'median':
            r['runs'] = {('mbufx' if k == 'mbufx-l3fwd' else k): stats[k]['runs']
                         for k in FORWARDERS}
            r['note'] = 'median CPU share forwarder/generator: %s; generator Tx ' \
                        'refused (forwarder saturated): %s' % (
                            ', '.join('%s %.2f/%.2f' % (k, stats[k]['cpu_fwd'],
                                                        stats[k]['cpu_gen'])
                                      for k in FORWARDERS),
                            ', '.join('%s %.0f%%' % (k, 100 * stats[k]['gen_tx_drop'])
                                      for k in FORWARDERS))
            if case in TARGETS:
                r['target'] = TARGETS[case]
                r['met'] = ratio is not None and ratio >= TARGETS[case]
        elif key == 'clean':
            r['note'] = 'clean samples (generator and forwarder >= %.2f CPU): %s' % (
                CLEAN, ', '.join('%s %d of %d' % (k, stats[k]['n_clean'], stats[k]['n'])
                                 for k in FORWARDERS))
        else:
            r['note'] = 'per sample: rate / forwarder CPU share, median; an estimate ' \
                        'for a loaded machine (a starved generator also idles the ' \
                        'forwarder)'
        rows.append(r)
    return rows, stats


def build_stock(build):
    """DPDK's l3fwd, built by devtools/stock-l3fwd.sh; its path."""
    p = subprocess.run([os.path.join(HERE, 'stock-l3fwd.sh'), build],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode == 77:
        raise Skip(p.stderr.decode().strip())
    if p.returncode != 0:
        raise Fail('cannot build DPDK\'s l3fwd: %s' % p.stderr.decode()[-2000:])
    return p.stdout.decode().strip().splitlines()[-1]


def bench(build, out, reps, seconds, sizes, cg_seconds, cg_sizes):
    if shutil.which('dpdk-testpmd') is None:
        raise Skip('dpdk-testpmd not found (Debian package dpdk)')
    if not have_hugepages(2400):
        raise Skip('three vhost-user/virtio-user pairs need about 2400 MiB of free 2 MiB '
                   'hugepages')
    stock = build_stock(build)
    env = Env(build, 'side')
    rows = []
    try:
        caps = write_captures(env)
        for case in (sizes if reps > 0 else []):
            runs = run_size(env, caps, stock, case, reps, seconds)
            rws, stats = summarise(case, runs)
            rows += rws
            print('%s: %s' % (case, '; '.join(
                '%s %.3f Mpps (clean %s, %d/%d; per CPU %.3f)' % (
                    k, stats[k]['median'],
                    '%.3f' % stats[k]['clean'] if stats[k]['clean'] is not None else '-',
                    stats[k]['n_clean'], stats[k]['n'], stats[k]['per_cpu'])
                for k in FORWARDERS)), flush=True)
        if cg_seconds > 0:
            if shutil.which('valgrind') is None or shutil.which('callgrind_annotate') is None:
                print('callgrind rows skipped: valgrind not found (Debian package valgrind)')
            else:
                rows += callgrind_rows(env, caps, stock, cg_seconds, cg_sizes)
    finally:
        env.cleanup()
    doc = {'bench': 'l3fwd',
           'title': 'mbufx-l3fwd against DPDK\'s l3fwd example on vhost-user (Mpps, higher '
                    'is better)',
           'env': {'pools': POOL_DESC, 'rounds': str(reps),
                   'seconds per turn': '%d s: the samples of 1 s wholly inside it' % seconds,
                   'order': 'interleaved in turns of %d s (SIGSTOP/SIGCONT, all three '
                            'started once per size), the order rotating every round' % seconds,
                   'generator': 'dpdk-testpmd io, net_pcap infinite replay into virtio-user; '
                                'frames are fresh copies of the capture (no recirculation, '
                                'so no TTL restore needed)',
                   'stock l3fwd': 'DPDK 22.11 examples/l3fwd from dpdk-doc, LPM, '
                                  '--parse-ptype, Rx offloads masked to the port\'s; checks '
                                  'IPv4 version/IHL via ptype, decrements TTL without a '
                                  'check, never verifies the header checksum',
                   'mbufx-l3fwd': 'LPM, RFC 1812 checks (version, IHL, lengths, header '
                                  'checksum in software, TTL, martians), drops counted',
                   'scheduling': 'normal priority, sharing the machine',
                   'clean sample': 'generator and forwarder both >= %.2f CPU in that second '
                                   '(/proc/<pid>/stat)' % CLEAN,
                   'sizes': 'on the wire with CRC; IMIX 7:4:1 of 64/594/1518 B'},
           'rows': rows}
    write_doc(out, doc)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('build')
    ap.add_argument('--out', required=True)
    ap.add_argument('--reps', type=int, default=6)
    ap.add_argument('--seconds', type=int, default=5)
    ap.add_argument('--sizes', nargs='+', default=list(SIZES), choices=SIZES)
    ap.add_argument('--callgrind-seconds', type=int, default=15,
                    help='seconds of traffic per forwarder under callgrind (0: none)')
    ap.add_argument('--callgrind-sizes', nargs='+', default=['64', '1518', '9000'],
                    choices=SIZES)
    a = ap.parse_args()
    try:
        return bench(os.path.abspath(a.build), a.out, a.reps, a.seconds, a.sizes,
                     a.callgrind_seconds, a.callgrind_sizes)
    except Skip as e:
        print('side-by-side l3fwd benchmark skipped: %s' % e)
        return 0
    except Fail as e:
        print('side-by-side l3fwd benchmark FAILED: %s' % e)
        return 1


if __name__ == '__main__':
    sys.exit(main())
