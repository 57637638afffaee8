# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""Forwarders taking turns on the same traffic: the A/B machinery shared by
`make bench` (sidebench.py) and `make demo` (fwdbench.py demo).

Each side is a pair of processes, a forwarder and its own dpdk-testpmd
generator on their own vhost-user ports, started once and then stopped
(SIGSTOP on both process groups). The pairs take turns of a few seconds on
the CPUs (SIGCONT, run, SIGSTOP), the order rotating every round, so that
every speed phase of the host is spread over all sides instead of landing
on one of them.

Samples: once a second testpmd prints the packet rate of its port 2 (frames
forwarded); at that moment the CPU time of the generator and of the
forwarder is read from /proc/<pid>/stat, so each sample carries both
processes' CPU share over that second. The first print of a turn spans the
stop and is dropped. A sample is clean when both had at least CLEAN of a
CPU (nothing else on the machine took their core).

A comparison of two sides is fair when each has at least FAIR_MIN_CLEAN
clean samples, at least FAIR_CLEAN_SHARE of its samples are clean, and at
least two rounds have clean turns on both sides; otherwise the machine was
too busy and fair() says why. The ratio is then the median of the ratios
taken round by round (turns next to each other in time: the host may change
speed between rounds, both sides with it); ratio_text() adds their range
when it is wider than FAIR_SPREAD around the median.
"""

import os
import re
import signal
import statistics
import time

from apptest import Fail

CLEAN = 0.97
FAIR_MIN_CLEAN = 4
FAIR_CLEAN_SHARE = 0.5
FAIR_SPREAD = 0.10
TICK = os.sysconf('SC_CLK_TCK')

PPS_RE = re.compile(r'NIC statistics for port 2\s.*?Rx-pps:\s+(\d+)', re.S)
TXDROP_RE = re.compile(r'Forward statistics for port 1\s.*?TX-dropped:\s+(\d+)\s.*?'
                       r'TX-total:\s+(\d+)', re.S)


def cpu_seconds(pid):
    """utime + stime of a process (all its threads), in seconds."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            fields = f.read().rsplit(')', 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK


def pause(*procs):
    for p in procs:
        os.killpg(p.pid, signal.SIGSTOP)


def resume(*procs):
    for p in procs:
        os.killpg(p.pid, signal.SIGCONT)


def wait_traffic(env, kind, fwd, gen, timeout=40):
    """Wait until the generator of a freshly started pair counts frames
    back, then stop the pair until its first turn."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if fwd.poll() is not None or gen.poll() is not None:
            raise Fail('%s: a side exited early:\n%s\n%s' % (kind, env.log(fwd)[-3000:],
                                                            env.log(gen)[-3000:]))
        if any(int(x) > 0 for x in PPS_RE.findall(env.log(gen))):
            break
        time.sleep(0.2)
    else:
        raise Fail('%s: no traffic within %d s:\n%s' % (kind, timeout, env.log(fwd)[-3000:]))
    pause(gen, fwd)


def turn(env, kind, fwd, gen, seconds):
    """One turn of a pair: resumed for @p seconds, then stopped again.
    @return samples (Mpps, generator CPU, forwarder CPU) of the testpmd
    periods wholly inside the turn (the first print after the resume spans
    the stop and is dropped)."""
    seen = len(PPS_RE.findall(env.log(gen)))
    resume(fwd, gen)
    samples, last, dropped_first = [], None, False
    end = time.time() + seconds
    try:
        while time.time() < end:
            if fwd.poll() is not None or gen.poll() is not None:
                raise Fail('%s: a side exited early:\n%s\n%s' % (
                    kind, env.log(fwd)[-3000:], env.log(gen)[-3000:]))
            pps = [int(x) for x in PPS_RE.findall(env.log(gen))]
            if len(pps) > seen:
                seen = len(pps)
                now = (time.time(), cpu_seconds(gen.pid), cpu_seconds(fwd.pid))
                if dropped_first and last is not None and None not in now + last:
                    dt = now[0] - last[0]
                    samples.append((pps[-1] / 1e6, (now[1] - last[1]) / dt,
                                    (now[2] - last[2]) / dt))
                dropped_first = True
                last = now
            time.sleep(0.05)
    finally:
        pause(gen, fwd)
    return samples


def take_turns(env, pairs, kinds, rounds, seconds, label):
    """The pairs[kind] = (fwd, gen) of @p kinds take @p rounds rounds of
    turns of @p seconds, the order rotating every round; each turn's samples
    are printed as they come. @return runs[kind] = [{'samples': [...]}]."""
    runs = {k: [] for k in kinds}
    for t in range(rounds):
        r = t % len(kinds)
        for kind in kinds[r:] + kinds[:r]:
            fwd, gen = pairs[kind]
            smp = turn(env, kind, fwd, gen, seconds)
            runs[kind].append({'samples': smp, 'gen_tx_drop': None})
            print('  %-5s %-12s %s Mpps' % (label, kind, ' '.join(
                '%.2f(%.2f/%.2f)' % x for x in smp)), flush=True)
    return runs


def gen_tx_drop(log):
    """Share of the frames the generator offered that the forwarder's port
    refused (its ring was full: the forwarder was the bottleneck), from
    testpmd's final statistics; None when not printed."""
    m = TXDROP_RE.search(log)
    return int(m.group(1)) / max(1, int(m.group(2))) if m else None


def stop_pair(env, fwd, gen, first='gen'):
    """Resume a stopped pair and end it with SIGINT, generator or forwarder
    first (both ignore SIGPIPE and must exit cleanly either way)."""
    resume(fwd, gen)
    for p in ((gen, fwd) if first == 'gen' else (fwd, gen)):
        env.stop(p, signal.SIGINT)
        time.sleep(0.3)


def kill_from(env, started):
    """SIGKILL what is left of the processes env started since index
    @p started (stopped ones are resumed first)."""
    for p in env.procs[started:]:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
            env.stop(p, signal.SIGKILL, timeout=5)


def med(v):
    return statistics.median(v) if v else 0.0


def iqr(v):
    """Interquartile range of v (0 for fewer than 2 values)."""
    if len(v) < 2:
        return 0.0
    q = statistics.quantiles(v, n=4, method='inclusive')
    return q[2] - q[0]


def side_stats(runs):
    """Statistics of one side's runs (the dicts take_turns() returns)."""
    allv = [s for r in runs for s in r['samples']]
    clean = [s[0] for s in allv if s[1] >= CLEAN and s[2] >= CLEAN]
    return {
        'median': med([s[0] for s in allv]), 'n': len(allv),
        'clean': med(clean) if clean else None, 'n_clean': len(clean),
        'spread': iqr(clean) / med(clean) if clean else None,
        'per_cpu': med([s[0] / s[2] for s in allv if s[2] > 0.05]),
        'cpu_fwd': med([s[2] for s in allv]), 'cpu_gen': med([s[1] for s in allv]),
        'gen_tx_drop': med([r['gen_tx_drop'] for r in runs if r['gen_tx_drop'] is not None]),
        'runs': [round(med([s[0] for s in r['samples']]), 3) for r in runs],
        'round_clean': [med([s[0] for s in r['samples'] if s[1] >= CLEAN and s[2] >= CLEAN])
                        or None for r in runs],
    }


def round_ratios(a, b):
    """Ratios a/b of the clean medians of each round both sides have."""
    return [x / y for x, y in zip(a['round_clean'], b['round_clean']) if x and y]


def fair(a, b):
    """None when the side_stats() a and b allow a fair comparison of their
    clean medians, else the reason the machine was too busy."""
    for st in (a, b):
        if st['n_clean'] < FAIR_CLEAN_SHARE * st['n']:
            return 'busy: %d/%d and %d/%d samples clean' % (a['n_clean'], a['n'],
                                                           b['n_clean'], b['n'])
    for st in (a, b):
        if st['n_clean'] < FAIR_MIN_CLEAN:
            return 'too few samples: %d and %d clean, %d needed (longer turns)' % (
                a['n_clean'], b['n_clean'], FAIR_MIN_CLEAN)
    rr = round_ratios(a, b)
    if len(rr) < 2:
        return 'busy: %d round(s) with clean turns on both sides' % len(rr)
    return None


def ratio_text(a, b):
    """The ratio a/b of a fair comparison: the median of the round-by-round
    ratios, with their range when it is wider than FAIR_SPREAD (the host
    changed speed within a round: the range says how far to trust it)."""
    rr = round_ratios(a, b)
    m = med(rr)
    if max(rr) > m * (1 + FAIR_SPREAD) or min(rr) < m * (1 - FAIR_SPREAD):
        return '%.2fx (by round %.2fx-%.2fx)' % (m, min(rr), max(rr))
    return '%.2fx' % m
