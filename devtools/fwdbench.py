#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""mbufx-l3fwd on mbufx pools against the same app on stock ring pools.

Two set-ups, both driven from here (standard library only):

  vhost   the copying path of `make demo`: dpdk-testpmd (mbufx pool) replays a
          capture forever from net_pcap into a virtio-user port; mbufx-l3fwd,
          in another process, receives it on vhost-user port 0 (vhost copies
          every frame into an mbuf of the app's pool, like NIC DMA), routes it
          to vhost-user port 1, and testpmd counts it back on its second
          virtio-user port. Two cores: testpmd on one, l3fwd on the other.
  ring    no copy, one core: mbufx-l3fwd --bench-gen on two net_ring ports; a
          software NIC in the app's loop posts receive buffers (late attach on
          mbufx pools, classic refill on stock pools), completes frames into
          port 0, and frees what arrives on port 1.

Stock jumbo frames arrive scattered over 2K mbufs (--scatter, what stock
l3fwd does); mbufx jumbo frames arrive in one jumbo-zone segment.

    fwdbench.py demo  BUILD_DIR [--reps ROUNDS] [--seconds TURN]
    fwdbench.py bench BUILD_DIR --out FILE.json [--reps N]

The demo runs the vhost set-up with both pool kinds taking turns on the
same traffic (turns.py, the machinery of `make bench`'s side-by-side runs)
and prints clean-sample medians, or that the machine was too busy for a
fair comparison.
"""

import argparse
import json
import os
import re
import signal
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', 'test', 'apps'))

from apptest import (POOL_DESC, Env, Fail, Skip, have_hugepages, l3fwd_pool_args,  # noqa: E402
                     run_callgrind, summary)
from pkt import ETH_IPV4, eth, ipv4, udp, write_pcap  # noqa: E402
from turns import (CLEAN, FAIR_CLEAN_SHARE, FAIR_MIN_CLEAN, FAIR_SPREAD, fair,  # noqa: E402
                   gen_tx_drop, kill_from, ratio_text, side_stats, stop_pair, take_turns,
                   wait_traffic)

# sizes are on the wire, CRC included: frames are 4 bytes shorter
IMIX = [(64, 7), (594, 4), (1518, 1)]


def frame(size, i):
    length = size - 4
    return eth('02:00:00:00:00:00', '02:00:00:00:00:99', ETH_IPV4,
               ipv4('198.18.0.1', '198.18.1.%d' % (i % 250 + 1),
                    udp(1024, 9, bytes(length - 42)), ident=i & 0xffff))


def write_captures(env):
    caps = {}
    for size in (64, 1518, 9000):
        caps[str(size)] = env.path('gen%d.pcap' % size)
        write_pcap(caps[str(size)], [frame(size, i) for i in range(64)])
    mix = []
    for rep in range(8):
        for size, weight in IMIX:
            mix += [frame(size, len(mix)) for _ in range(weight)]
    caps['imix'] = env.path('genimix.pcap')
    write_pcap(caps['imix'], mix)
    return caps


def median(v):
    return statistics.median(v) if v else 0.0


STATS_RE = re.compile(r'p1 rx [\d.]+ Mpps [\d.]+ Gb/s tx ([\d.]+) Mpps ([\d.]+) Gb/s')


def stats_lines(text):
    return [(float(m.group(1)), float(m.group(2))) for m in STATS_RE.finditer(text)]


def retried(fn, *args, **kw):
    """A benchmark run, tried again (twice at most) when it could not start:
    on a machine shared with other jobs a hugepage allocation may fail."""
    for attempt in range(3):
        try:
            return fn(*args, **kw)
        except Fail as e:
            if attempt == 2:
                raise
            print('run failed, retrying: %s' % str(e).strip().splitlines()[-1], flush=True)
            time.sleep(1)


def start_generator(env, testpmd, caps, case, fwd, name, s0, s1, log, wait_s=10):
    """Once the forwarder fwd has created its vhost-user sockets s0 and s1,
    start dpdk-testpmd as the generator: io forwarding, one lcore, the
    capture of case replayed forever into virtio-user port 1 (to s0), frames
    counted on port 2 (from s1) and freed; mbufx pool of 16384 mbufs."""
    for _ in range(int(wait_s / 0.05)):
        if (os.path.exists(s0) and os.path.exists(s1)) or fwd.poll() is not None:
            break
        time.sleep(0.05)
    if not os.path.exists(s1):
        raise Fail('%s did not create its vhost sockets:\n%s' % (name, env.log(fwd)[-3000:]))
    gen_args = ['--forward-mode=io', '--port-topology=chained', '--stats-period=1',
                '--total-num-mbufs=16384', '--nb-cores=1', '--no-flush-rx']
    if case == '9000':
        gen_args += ['--mbuf-size=9344', '--max-pkt-len=9018']
    return env.start([testpmd] + env.eal('0,1', 420, huge=True, shared=True) + [
        '--main-lcore', '1',
        '--vdev', 'net_pcap0,rx_pcap=%s,infinite_rx=1' % caps[case],
        '--vdev', 'net_virtio_user0,path=%s' % s0, '--vdev', 'net_virtio_user1,path=%s' % s1,
        '-d', 'librte_mempool_mbufx.so', '--mbuf-pool-ops-name=mbufx', '--'] + gen_args,
        env=env.testpmd_env(), log=log, ignore_sigpipe=True)


def run_vhost(env, caps, case, pool, seconds, stop_first='testpmd'):
    """One run on the vhost pair; returns a result dict."""
    started = len(env.procs)
    try:
        return vhost_once(env, caps, case, pool, seconds, stop_first)
    finally:
        for p in env.procs[started:]:
            if p.poll() is None:
                env.stop(p, signal.SIGKILL, timeout=5)



def start_l3fwd_vhost(env, tag, pool, jumbo):
    """mbufx-l3fwd on @p pool pools on a fresh vhost-user pair (sockets and
    summary named after @p tag): (socket 0, socket 1, summary path, process)."""
    s0, s1, sj = env.path(tag + '0.sock'), env.path(tag + '1.sock'), env.path(tag + '.json')
    fwd = env.start([env.l3fwd] + env.eal('1', 320, huge=True) + [
        '--vdev', 'net_vhost0,iface=%s,queues=1' % s0,
        '--vdev', 'net_vhost1,iface=%s,queues=1' % s1,
        '--', '-p', '3', '-T', '1', '--link-wait', '30', '--summary', sj] +
        l3fwd_pool_args(pool, jumbo), log=tag + '_l3fwd.log')
    return s0, s1, sj, fwd

def vhost_once(env, caps, case, pool, seconds, stop_first):
    import shutil
    testpmd = shutil.which('dpdk-testpmd')
    if testpmd is None:
        raise Skip('dpdk-testpmd not found (Debian package dpdk)')
    if not have_hugepages(900):
        raise Skip('vhost-user/virtio-user need about 900 MiB of free 2 MiB hugepages')
    jumbo = case == '9000'
    tag = '%s_%s_%d' % (case, pool, env.nrun)
    s0, s1, sj, fwd = start_l3fwd_vhost(env, tag, pool, jumbo)
    gen = start_generator(env, testpmd, caps, case, fwd, 'mbufx-l3fwd', s0, s1,
                          tag + '_testpmd.log')
    t_end = None
    deadline = time.time() + seconds + 40
    while time.time() < deadline:
        if fwd.poll() is not None or gen.poll() is not None:
            raise Fail('a side exited early:\n%s\n%s' % (env.log(fwd)[-3000:],
                                                        env.log(gen)[-3000:]))
        if t_end is None and 'forwarding on' in env.log(fwd):
            t_end = time.time() + seconds + 1
        if t_end is not None and time.time() >= t_end:
            break
        time.sleep(0.25)
    order = [gen, fwd] if stop_first == 'testpmd' else [fwd, gen]
    for p in order:
        env.stop(p, signal.SIGINT)
        time.sleep(0.3)
    lf, lg = env.log(fwd), env.log(gen)
    if fwd.returncode != 0:
        raise Fail('mbufx-l3fwd exited %d:\n%s' % (fwd.returncode, lf[-3000:]))
    if gen.returncode not in (0, -signal.SIGINT) or 'Bye' not in lg:
        raise Fail('testpmd did not stop cleanly (%d):\n%s' % (gen.returncode, lg[-3000:]))
    s = summary(sj)
    samples = [x for x in stats_lines(lf) if x[0] > 0][1:]   # drop the ramp-up second
    best = max(samples) if samples else (0.0, 0.0)
    m = re.search(r'Forward statistics for port 2\s+-+\s+RX-packets: (\d+)', lg)
    return {
        'mpps': best[0],
        'gbps': best[1],
        'mpps_median': median([x[0] for x in samples]),
        'cpp': s['cycles_per_pkt'],
        'rx_pkts': s['rx_pkts'],
        'rx_multiseg': s['rx_multiseg'],
        'forwarded': s['ports'][1]['tx_pkts'],
        'back': int(m.group(1)) if m else None,
        'leak': s['leak'],
        'drops': {k: v for k, v in s['drops'].items() if v},
    }


def run_ring(env, size, pool, seconds, rules=None, chain=False):
    """One --bench-gen run on net_ring; returns a result dict."""
    jumbo = size > 1518
    sj = env.path('ring_%d_%s_%d.json' % (size, pool, env.nrun))
    args = ['-p', '3', '-T', '1', '--bench-gen', str(size), '--run-time', str(seconds),
            '--summary', sj] + l3fwd_pool_args(pool, jumbo)
    if rules:
        args += ['--rule_ipv4', rules]
    if chain:
        args.append('--encap-chain')
    _, out = env.run([env.l3fwd] + env.eal('0', 320) + [
        '--vdev', 'net_ring0', '--vdev', 'net_ring1', '--'] + args, timeout=seconds + 60)
    s = summary(sj)
    bad = {k: v for k, v in s['drops'].items() if v}
    if bad or s['leak'] or s['ports'][1]['tx_pkts'] == 0:
        raise Fail('--bench-gen %d on %s: drops %s, leak %s, forwarded %d' %
                   (size, pool, bad, s['leak'], s['ports'][1]['tx_pkts']))
    best = max(stats_lines(out) or [(0.0, 0.0)])
    # one core does everything and is never idle: cycles per packet = TSC / rate
    return {'mpps': best[0], 'cpp': s['tsc_hz'] / (best[0] * 1e6) if best[0] else 0.0,
            'gbps': best[1],
            'rx_multiseg': s['rx_multiseg'], 'rx_pkts': s['rx_pkts'], 'leak': s['leak'],
            'segs': s['gen']['segs']}


# Gb/s of the demo table: frame bytes (no CRC) per frame of each capture
FRAME_BYTES = {'64': 60.0, '1518': 1514.0, '9000': 8996.0,
               'imix': sum((size - 4) * w for size, w in IMIX) / sum(w for _, w in IMIX)}
DEMO_CASES = ('64', 'imix', '9000')
DEMO_SIDES = ('mbufx', 'stock')


def start_demo_pair(env, caps, case, pool):
    """mbufx-l3fwd on @p pool pools and its generator on their own vhost
    pair, carrying traffic, then stopped until their first turn."""
    import shutil
    jumbo = case == '9000'
    tag = 'demo_%s_%s_%d' % (case, pool, env.nrun)
    s0, s1, sj, fwd = start_l3fwd_vhost(env, tag, pool, jumbo)
    gen = start_generator(env, shutil.which('dpdk-testpmd'), caps, case, fwd, 'mbufx-l3fwd',
                          s0, s1, tag + '_testpmd.log')
    wait_traffic(env, pool, fwd, gen)
    return fwd, gen, sj


def demo_case(env, caps, case, rounds, seconds):
    """Both sides of one size take turns on the same traffic; the mbufx pair
    is stopped generator first, the stock pair forwarder first.
    @return res[pool] = result dict."""
    started = len(env.procs)
    pairs, summaries, res = {}, {}, {}
    try:
        for pool in DEMO_SIDES:
            fwd, gen, sj = retried(start_demo_pair, env, caps, case, pool)
            pairs[pool], summaries[pool] = (fwd, gen), sj
        runs = take_turns(env, pairs, DEMO_SIDES, rounds, seconds, case)
        for pool in DEMO_SIDES:
            fwd, gen = pairs[pool]
            stop_pair(env, fwd, gen, first='gen' if pool == 'mbufx' else 'fwd')
            lf, lg = env.log(fwd), env.log(gen)
            if fwd.returncode != 0:
                raise Fail('mbufx-l3fwd exited %d:\n%s' % (fwd.returncode, lf[-3000:]))
            if gen.returncode not in (0, -signal.SIGINT) or 'Bye' not in lg:
                raise Fail('testpmd did not stop cleanly (%d):\n%s' % (gen.returncode,
                                                                       lg[-3000:]))
            runs[pool][-1]['gen_tx_drop'] = gen_tx_drop(lg)
            s = summary(summaries[pool])
            m = re.search(r'Forward statistics for port 2\s+-+\s+RX-packets: (\d+)', lg)
            st = side_stats(runs[pool])
            mpps = st['clean'] if st['clean'] is not None else st['median']
            st.update({
                'mpps': mpps, 'gbps': mpps * FRAME_BYTES[case] * 8 / 1e3,
                'rx_pkts': s['rx_pkts'], 'rx_multiseg': s['rx_multiseg'],
                'forwarded': s['ports'][1]['tx_pkts'],
                'back': int(m.group(1)) if m else None, 'leak': s['leak'],
                'drops': {k: v for k, v in s['drops'].items() if v},
                'samples': [list(x) for r in runs[pool] for x in r['samples']]})
            if st['leak']:
                raise Fail('mbufx-l3fwd on %s pools leaked %s' % (pool, st['leak']))
            res[pool] = st
        return res
    finally:
        kill_from(env, started)


def demo(build, rounds, seconds):
    import shutil
    env = Env(build, 'demo')
    results = {}
    try:
        if shutil.which('dpdk-testpmd') is None:
            raise Skip('dpdk-testpmd not found (Debian package dpdk)')
        if not have_hugepages(1600):
            raise Skip('two vhost-user/virtio-user pairs need about 1600 MiB of free 2 MiB '
                       'hugepages')
        caps = write_captures(env)
        print('mbufx demo: dpdk-testpmd (mbufx pool) replays IPv4/UDP to 198.18.1.0/24 into\n'
              'virtio-user; mbufx-l3fwd routes it between two vhost-user ports (vhost copies\n'
              'every frame like NIC DMA); testpmd counts it back. Per size, the router on\n'
              'mbufx pools and the router on stock ring pools, each with its own generator,\n'
              'take %d turns of %d s on the two cores (the other pair stopped). Live: one\n'
              'sample per second, Mpps (generator CPU / router CPU).\n' % (rounds, seconds))
        for case in DEMO_CASES:
            print('--- %s: mbufx pools and stock ring pools taking turns' %
                  ('IMIX' if case == 'imix' else '%s B' % case), flush=True)
            res = demo_case(env, caps, case, rounds, seconds)
            for pool in DEMO_SIDES:
                results[(case, pool)] = res[pool]
        print_table(results, rounds, seconds)
        out = os.path.join(os.getcwd(), 'demo-results')
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, 'demo.json'), 'w') as f:
            json.dump({'%s/%s' % k: v for k, v in results.items()}, f, indent=1)
        print('\n(results and every sample also in demo-results/demo.json)')
        return 0
    except Skip as e:
        print('demo: cannot run here: %s' % e)
        return 1
    except Fail as e:
        print('demo: FAILED: %s' % e)
        return 1
    finally:
        env.cleanup()


def segs(r):
    if r['rx_pkts'] == 0:
        return '-'
    if r['rx_multiseg'] == 0:
        return '1 segment'
    return 'chains (%d%%)' % (100 * r['rx_multiseg'] // r['rx_pkts'])


def side_cells(r):
    clean = '%d/%d' % (r['n_clean'], r['n'])
    spread = '%3.0f%%' % (100 * r['spread']) if r['spread'] is not None else '   -'
    return '%6.3f%s %6.2f %5s %4s %-11s' % (r['mpps'], ' ' if r['clean'] is not None else '*',
                                          r['gbps'], clean, spread, segs(r))


def print_table(results, rounds, seconds):
    print('\n%-6s | %-37s | %-37s | %s' % ('', 'mbufx pools', 'stock ring pools',
                                           'mbufx/stock'))
    print('%-6s | %7s %6s %5s %4s %-11s | %7s %6s %5s %4s %-11s | %s' %
          ('size', 'Mpps', 'Gb/s', 'clean', 'IQR', 'rx', 'Mpps', 'Gb/s', 'clean', 'IQR', 'rx',
           'Mpps'))
    print('-' * 104)
    for case in DEMO_CASES:
        a, b = results[(case, 'mbufx')], results[(case, 'stock')]
        why = fair(a, b)
        print('%-6s | %s | %s | %s' % (
            '64 B' if case == '64' else 'IMIX' if case == 'imix' else '9000 B',
            side_cells(a), side_cells(b),
            why if why else ratio_text(a, b)))
    print('Mpps: frames forwarded by mbufx-l3fwd and counted back at the generator, median '
          'of\nthe clean 1-second samples (generator and router both had >= %.2f of a CPU; '
          '* = none\nclean, median of all). The two sides took %d turns of %d s each on the '
          'same traffic,\nthe order alternating. clean: clean samples of all; IQR: their '
          'interquartile range\nover their median. Gb/s: Mpps x frame bytes (no CRC). rx: '
          'how frames arrived in the\nrouter. A ratio (the median of the ratios taken round '
          'by round, with their range\nwhen it is wider than %d%%) is printed only when '
          'each side has >= %d clean samples\nand at least %d%% of its samples clean; '
          'otherwise the machine was too busy for a\nfair comparison and the last column '
          'says why. `make bench` runs more turns.\nFrames counted back at the generator: ' %
          (CLEAN, rounds, seconds, 100 * FAIR_SPREAD, FAIR_MIN_CLEAN, 100 * FAIR_CLEAN_SHARE) +
          ', '.join('%s/%s %s' % (c, p, r['back']) for (c, p), r in results.items()))


VHOST_NOTES = {
    '64': 'one lcore allocates (vhost Rx) and frees (vhost Tx): the per-lcore mempool '
          'caches serve both drivers and the copies dominate; the difference is within '
          'the run-to-run spread (see runs)',
    '9000': 'copy-bound: the router\'s core copies every frame twice (vhost in and out, '
            '18 KB); one segment instead of five saves about 10 % of its cycles. The 1.3x '
            'is met where the buffer path is the work (net_ring 9000 B)',
}

ENCAP_RULES = {
    'vlan': 'R198.18.1.0/24 1 vlan 100\n',
    'mpls': 'R198.18.1.0/24 1 mpls 1000\n',
    'gre': 'R198.18.1.0/24 1 gre 10.0.0.1 10.0.0.2\n',
}


def row(case, metric, better, a_runs, b_runs, base, target=None, note=None):
    a, b = median(a_runs), median(b_runs)
    ratio = (a / b if better == 'higher' else b / a) if a and b else 0.0
    r = {'case': case, 'metric': metric, 'better': better,
         'values': {'mbufx': round(a, 3), base: round(b, 3)},
         'runs': {'mbufx': [round(x, 3) for x in a_runs], base: [round(x, 3) for x in b_runs]},
         'baseline': base, 'ratio': round(ratio, 3)}
    if target is not None:
        r['target'] = target
        r['met'] = ratio >= target
    if note:
        r['note'] = note
    return r


def write_doc(out, doc):
    """Write a benchmark's JSON document (the schema of bench-report.py)."""
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, 'w') as f:
        json.dump(doc, f, indent=1)
    print('wrote %s' % out)


def bench(build, out, reps, seconds, vhost_seconds):
    env = Env(build, 'bench')
    rows = []
    try:
        # 1. net_ring, no copy, one core: generate + forward + free
        for size, target in ((64, 1.0), (1518, None), (9000, 1.3)):
            runs = {'mbufx': [], 'stock': []}
            for rep in range(reps):
                for pool in ('mbufx', 'stock') if rep % 2 == 0 else ('stock', 'mbufx'):
                    runs[pool].append(retried(run_ring, env, size, pool, seconds))
            name = 'net_ring %d B' % size
            rows.append(row(name, 'Mpps', 'higher', [r['mpps'] for r in runs['mbufx']],
                            [r['mpps'] for r in runs['stock']], 'ring_mp_mc', target))
            rows.append(row(name, 'cycles/pkt', 'lower', [r['cpp'] for r in runs['mbufx']],
                            [r['cpp'] for r in runs['stock']], 'ring_mp_mc'))
            print('%s: mbufx %.2f Mpps, stock %.2f Mpps (medians of %d)' %
                  (name, rows[-2]['values']['mbufx'], rows[-2]['values']['ring_mp_mc'], reps),
                  flush=True)
        # 2. encapsulation in place against always chaining a header mbuf
        for kind, text in ENCAP_RULES.items():
            rules = env.path('encap_%s.cfg' % kind)
            with open(rules, 'w') as f:
                f.write(text)
            runs = {'inplace': [], 'chain': []}
            for rep in range(reps):
                for mode in ('inplace', 'chain') if rep % 2 == 0 else ('chain', 'inplace'):
                    runs[mode].append(retried(run_ring, env, 64, 'mbufx', seconds, rules,
                                              chain=mode == 'chain'))
            name = 'encap %s 64 B (net_ring)' % kind
            r = row(name, 'Mpps', 'higher', [x['mpps'] for x in runs['inplace']],
                    [x['mpps'] for x in runs['chain']], 'chained', 1.25,
                    note='mbufx = mbufx_prepend() in the headroom; chained = a header '
                         'mbuf allocated and chained per packet (--encap-chain)')
            rows.append(r)
            print('%s: in place %.2f, chained %.2f Mpps' %
                  (name, r['values']['mbufx'], r['values']['chained']), flush=True)
        # 2b. instructions per packet (callgrind), no copy: load-independent
        try:
            for size in (64, 1518, 9000):
                ipp = {pool: [run_callgrind(env, size, pool)] for pool in ('mbufx', 'stock')}
                rows.append(row('net_ring %d B (callgrind)' % size, 'instructions/pkt',
                                'lower', ipp['mbufx'], ipp['stock'], 'ring_mp_mc',
                                note='generator + l3fwd + sink loop of one lcore, '
                                     'valgrind --tool=callgrind, --no-huge'))
                print('net_ring %d B: %.1f / %.1f instructions per packet (mbufx / stock '
                      'pools)' % (size, ipp['mbufx'][0], ipp['stock'][0]), flush=True)
        except Skip as e:
            print('callgrind part skipped: %s' % e)
        # 3. vhost-user copying port, two processes, two cores
        try:
            caps = write_captures(env)
            for case, target in (('64', 1.0), ('1518', None), ('9000', 1.3)):
                runs = {'mbufx': [], 'stock': []}
                for rep in range(reps):
                    for pool in ('mbufx', 'stock') if rep % 2 == 0 else ('stock', 'mbufx'):
                        runs[pool].append(retried(run_vhost, env, caps, case, pool,
                                                  vhost_seconds))
                name = 'vhost-user %s B' % case
                rows.append(row(name, 'Mpps', 'higher', [r['mpps'] for r in runs['mbufx']],
                                [r['mpps'] for r in runs['stock']], 'ring_mp_mc', target,
                                note=VHOST_NOTES.get(case)))
                rows.append(row(name, 'cycles/pkt', 'lower', [r['cpp'] for r in runs['mbufx']],
                                [r['cpp'] for r in runs['stock']], 'ring_mp_mc'))
                print('%s: mbufx %.2f Mpps, stock %.2f Mpps' %
                      (name, rows[-2]['values']['mbufx'], rows[-2]['values']['ring_mp_mc']),
                      flush=True)
        except Skip as e:
            print('vhost-user part skipped: %s' % e)
        doc = {'bench': 'apps',
               'title': 'mbufx-l3fwd: mbufx pools vs stock ring pools, encap in place vs chained',
               'env': {'pools': POOL_DESC, 'repetitions': str(reps),
                       'seconds per run': '%d (net_ring), %d (vhost)' % (seconds, vhost_seconds),
                       'lcores': 'net_ring: 1 (generator, l3fwd, sink in one loop); vhost: '
                                 'l3fwd 1 + testpmd generator 1',
                       'order': 'A/B interleaved, alternating which goes first',
                       'statistic': 'per run the best 1-second window (other jobs share '
                                    'the 2 vCPUs and only ever slow a run down), then '
                                    'the median over the runs',
                       'sizes': 'on the wire with CRC; frames are 4 B shorter',
                       'jumbo': 'mbufx: one 9344 B jumbo-zone segment; stock: --scatter, '
                                '2K chains (as stock l3fwd)',
                       'cycles': 'rte_rdtsc() over loop iterations that had work, per packet'},
               'rows': rows}
        write_doc(out, doc)
        return 0
    except Fail as e:
        print('bench: FAILED: %s' % e)
        return 1
    finally:
        env.cleanup()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('mode', choices=('demo', 'bench'))
    ap.add_argument('build')
    ap.add_argument('--seconds', type=int, default=None,
                    help='bench: seconds per run (3); demo: seconds per turn (3)')
    ap.add_argument('--reps', type=int, default=None,
                    help='bench: repetitions (5); demo: rounds of turns (3)')
    ap.add_argument('--out', default=None)
    a = ap.parse_args()
    if a.mode == 'demo':
        return demo(a.build, a.reps or 3, a.seconds or 3)
    if not a.out:
        ap.error('bench needs --out FILE')
    return bench(a.build, a.out, a.reps or 5, a.seconds or 3, 5)


if __name__ == '__main__':
    sys.exit(main())
