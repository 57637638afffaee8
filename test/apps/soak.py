#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""Soak under faults: mbufx-l3fwd on two ports fed by dpdk-testpmd, for a
bounded time, while faults are injected on a schedule. The ports:

  vhost  two vhost-user ports; the generator runs flowgen (on the mbufx pool)
         on virtio-user and takes the forwarded frames back
  xdp    two AF_XDP ports (net_mbufx_xdp: late attach, the jumbo zone) on the
         router's veths in namespaces made here (test/xdp/xdpnet.py); the
         generator runs txonly on af_packet in host A, the frames leave to
         host B; every other generator sends to a destination whose route
         pushes a VLAN header in a chained header mbuf

    soak.py BUILD_DIR --minutes N [--port vhost|xdp]   make soak (devtools/soak.sh)
    soak.py BUILD_DIR --compact [--port vhost|xdp]     one cycle, one fault of each kind

One cycle, with one frame size (the sizes rotate: 64, 570, 1518 and 9000
bytes, an IMIX spread over time, jumbo included):

    generator (re)started with the cycle's size, rate measured (baseline)
    SIGUSR1 to the forwarder: ports stopped, queues set up again, started
    generator killed (SIGKILL) and restarted: vhost-user disconnect/reconnect
    every fourth cycle (every cycle with --compact): SIGTERM to the
    forwarder mid-traffic, then a new forwarder (and generator)

All along, the forwarder's zones run dry on a schedule (--squeeze, periodic:
packet, jumbo and header zones; half the traffic is encapsulated in chained
headers, so the header zone is in use). Asserted, and printed at the end:

  - no crash: every forwarder exits 0 on SIGTERM/SIGINT, the generator is
    alive until it is killed on purpose;
  - the leak audit: every zone full again at each forwarder exit;
  - RSS flat: no forwarder's resident memory grows by more than RSS_SLACK_KB
    after its warm-up;
  - recovery: after each fault the forwarding rate is back to RECOVER_FRAC
    of the cycle's baseline within RECOVER_S seconds (time printed). A port
    a fault leaves stuck forwards nothing; a quarter, not a half, because
    another job on a 2-core machine can halve both processes' rate for
    seconds, and the baseline may have been taken before it started.
"""

import os
import re
import shutil
import signal
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from apptest import Env, Fail, SKIP, Skip, check, have_hugepages, summary  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'xdp'))

SIZES = (64, 570, 1518, 9000)
RECOVER_S = 10
RECOVER_FRAC = 0.25
RSS_SLACK_KB = 8192
WARM_S = 3
RULES = 'R10.253.0.0/23 1 vlan 100\nR10.253.0.0/16 1\n'
SQUEEZE = 'pkt:2000:150:5000,jumbo:3500:150:6000,hdr:1000:200:4000'
# AF_XDP: 198.18.1.77 gets a VLAN header (chained), 198.18.1.200 goes plain
XDP_RULES = 'R198.18.1.0/25 1 vlan 100\nR198.18.1.0/24 1\nR198.18.0.0/24 0\n'
XDP_DST = ('198.18.1.77', '198.18.1.200')


class Soak:
    def __init__(self, env, testpmd, port='vhost', topo=None, pmd=None):
        self.env = env
        self.testpmd = testpmd
        self.port, self.topo, self.pmd = port, topo, pmd
        self.fwd = self.gen = None
        self.nfwd = self.ngen = 0
        self.s0, self.s1 = env.path('s0.sock'), env.path('s1.sock')
        self.rules = env.path('rules.cfg')
        with open(self.rules, 'w') as f:
            f.write(RULES if port == 'vhost' else XDP_RULES)
        self.report = []        # (fault, size, seconds to recover)
        self.rss = []           # (forwarder, warm KB, max KB after)
        self.exits = []

    # --- processes ---------------------------------------------------------
    def start_fwd(self):
        self.nfwd += 1
        if self.port == 'xdp':
            return self.start_fwd_xdp()
        for s in (self.s0, self.s1):
            if os.path.exists(s):
                os.unlink(s)
        self.sj = self.env.path('fwd%d.json' % self.nfwd)
        self.fwd = self.env.start([self.env.l3fwd] + self.env.eal('1', 512, huge=True) + [
            '--vdev', 'net_vhost0,iface=%s,queues=1' % self.s0,
            '--vdev', 'net_vhost1,iface=%s,queues=1' % self.s1,
            '--', '-p', '3', '-T', '1', '--link-wait', '0', '--max-pkt-len', '9018',
            '--rule_ipv4', self.rules, '--encap-chain', '--squeeze', SQUEEZE,
            '--summary', self.sj], log='fwd%d.log' % self.nfwd)
        self.fwd_t0 = time.time()
        self.rss_warm = None
        self.rss_max = 0
        deadline = time.time() + 30
        while not (os.path.exists(self.s0) and os.path.exists(self.s1)):
            check(self.fwd.poll() is None and time.time() < deadline,
                  'forwarder did not create its sockets:\n%s', self.env.log(self.fwd)[-3000:])
            time.sleep(0.1)

    def start_fwd_xdp(self):
        from test_xdp import run_env
        topo, pmd = self.topo, self.pmd
        self.sj = self.env.path('fwd%d.json' % self.nfwd)
        self.fwd = self.env.start(
            topo.exec_args('R') + [self.env.l3fwd] + self.env.eal('1', 512, huge=True) +
            pmd.eal_args() + pmd.vdev(0, topo.ifs['R0']) + pmd.vdev(1, topo.ifs['R1']) + [
                '--', '-p', '3', '-T', '1', '--link-wait', '5', '--max-pkt-len', '9018',
                '--jumbo-mbufs', '2048', '--rx-queue-size', '512', '--tx-queue-size', '512',
                '--eth-dest=0,%s' % topo.mac['A'], '--eth-dest=1,%s' % topo.mac['B'],
                '--rule_ipv4', self.rules, '--encap-chain', '--squeeze', SQUEEZE,
                '--summary', self.sj], env=run_env(self.env, pmd), log='fwd%d.log' % self.nfwd)
        self.fwd_t0 = time.time()
        self.rss_warm = None
        self.rss_max = 0
        deadline = time.time() + 30
        while 'forwarding on' not in self.env.log(self.fwd):
            check(self.fwd.poll() is None and time.time() < deadline,
                  'forwarder did not start:\n%s', self.env.log(self.fwd)[-3000:])
            time.sleep(0.1)

    def start_gen(self, size):
        self.ngen += 1
        if self.port == 'xdp':
            from xdpnet import Generator
            self.gen = Generator(self.env, self.topo, size, dst=XDP_DST[self.ngen % 2],
                                 log='gen%d.log' % self.ngen).proc
            return
        eal = self.env.eal('0,1', 256, huge=True, shared=True)
        self.gen = self.env.start([self.testpmd] + eal + [
            '--main-lcore', '1',
            '--vdev', 'net_virtio_user0,path=%s' % self.s0,
            '--vdev', 'net_virtio_user1,path=%s' % self.s1,
            '-d', 'librte_mempool_mbufx.so', '--mbuf-pool-ops-name=mbufx', '--',
            '--forward-mode=flowgen', '--txpkts=%d' % size, '--max-pkt-len=9018',
            '--mbuf-size=9344', '--total-num-mbufs=4096', '--stats-period=5',
            '--nb-cores=1'], env=self.env.testpmd_env(), log='gen%d.log' % self.ngen,
            ignore_sigpipe=True)

    def stop_fwd(self, sig):
        rc = self.env.stop(self.fwd, sig, timeout=30)
        log = self.env.log(self.fwd)
        check(rc == 0, 'forwarder %d exit %d on signal %d:\n%s', self.nfwd, rc, sig,
              log[-3000:])
        s = summary(self.sj)
        check(not s['leak'], 'forwarder %d: mbufs leaked:\n%s', self.nfwd, log[-3000:])
        check('every zone is full again' in log, 'no leak audit in the log')
        self.exits.append((self.nfwd, s['ctl']))
        if self.rss_warm is not None:
            self.rss.append((self.nfwd, self.rss_warm, self.rss_max))
            check(self.rss_max - self.rss_warm <= RSS_SLACK_KB,
                  'forwarder %d: RSS grew from %d to %d KB after warm-up', self.nfwd,
                  self.rss_warm, self.rss_max)

    def kill_gen(self, sig=signal.SIGKILL):
        if self.gen is not None and self.gen.poll() is None:
            os.killpg(self.gen.pid, sig)
            self.gen.wait(20)
        if self.gen is not None:
            self.gen.logfile.close()

    # --- measurements --------------------------------------------------------
    def sample(self):
        """Forwarder's last tx rate (Mpps, port 1), and its RSS."""
        check(self.fwd.poll() is None, 'forwarder died (exit %s):\n%s', self.fwd.returncode,
              self.env.log(self.fwd)[-3000:])
        check(self.gen.poll() is None, 'generator died (exit %s):\n%s', self.gen.returncode,
              self.env.log(self.gen)[-3000:])
        try:
            with open('/proc/%d/status' % self.fwd.pid) as f:
                kb = int(re.search(r'VmRSS:\s+(\d+)', f.read()).group(1))
        except (OSError, AttributeError):
            kb = 0
        if kb and time.time() - self.fwd_t0 >= WARM_S + 2:
            if self.rss_warm is None:
                self.rss_warm = kb
            self.rss_max = max(self.rss_max, kb)
        lines = re.findall(r'p1 rx [\d.]+ Mpps [\d.]+ Gb/s tx ([\d.]+) Mpps',
                           self.env.log(self.fwd))
        return (float(lines[-1]) if lines else 0.0), len(lines)

    def wait_rate(self, want, limit, since_line):
        """Seconds until a stats line after since_line shows want Mpps."""
        t0 = time.time()
        while time.time() - t0 < limit:
            r, n = self.sample()
            if n > since_line and r >= want:
                return time.time() - t0
            time.sleep(0.25)
        return None

    def baseline(self):
        _, n0 = self.sample()
        time.sleep(WARM_S)
        rates = []
        while len(rates) < 3:
            time.sleep(1.05)
            r, n = self.sample()
            if n > n0:
                rates.append(r)
                n0 = n
        b = statistics.median(rates)
        check(b > 0, 'no traffic: rates %s\n%s\n%s', rates, self.env.log(self.fwd)[-2000:],
              self.env.log(self.gen)[-2000:])
        return b

    def recover(self, fault, size, base):
        _, n = self.sample()
        t = self.wait_rate(base * RECOVER_FRAC, RECOVER_S, n)
        check(t is not None, 'after %s (%d B): rate not back to %.3f Mpps within %d s:\n%s',
              fault, size, base * RECOVER_FRAC, RECOVER_S, self.env.log(self.fwd)[-2000:])
        self.report.append((fault, size, base, t))
        print('  %-26s %5d B: back to half of %.3f Mpps in %.1f s' % (fault, size, base, t))
        sys.stdout.flush()

    # --- one cycle -----------------------------------------------------------
    def cycle(self, size, restart_fwd):
        if self.gen is None or self.gen.poll() is not None:
            self.start_gen(size)
        base = self.baseline()
        print('cycle %d B: baseline %.3f Mpps (forwarder %d, generator %d)' %
              (size, base, self.nfwd, self.ngen))
        self.fwd.send_signal(signal.SIGUSR1)
        self.recover('ports restarted (SIGUSR1)', size, base)
        self.kill_gen()
        self.start_gen(size)
        self.recover('generator killed+restarted', size, base)
        if not restart_fwd:
            return
        time.sleep(1)
        self.stop_fwd(signal.SIGTERM)
        self.kill_gen()
        self.start_fwd()
        self.start_gen(size)
        self.recover('forwarder SIGTERM+restart', size, base)

    def finish(self):
        # a steady stretch, so the last forwarder's RSS is watched too
        t0 = time.time()
        while time.time() - t0 < WARM_S + 4:
            self.sample()
            time.sleep(0.5)
        self.kill_gen(signal.SIGINT)
        self.stop_fwd(signal.SIGINT)


def run(build, minutes, compact, port):
    env = Env(build, 'soak_' + port)
    topo = None
    try:
        testpmd = shutil.which('dpdk-testpmd')
        if testpmd is None:
            raise Skip('dpdk-testpmd not found')
        pmd = None
        if port == 'xdp':
            from xdpnet import Pmd, Topo, require_afxdp
            require_afxdp()
            pmd = Pmd('mbufx_xdp', build)
            pmd.require()
            if not have_hugepages(1000):
                raise Skip('the AF_XDP soak needs about 1 GB of free hugepages')
            topo = Topo(mtu=9000)
        elif not have_hugepages(1200):
            raise Skip('vhost-user needs about 1.2 GB of free hugepages')
        soak = Soak(env, testpmd, port, topo, pmd)
        soak.start_fwd()
        t_end = time.time() + minutes * 60
        i = 0
        while True:
            # a forwarder lives four cycles (every size, several reconnects)
            soak.cycle(SIZES[i % len(SIZES)] if not compact else 9000,
                       compact or i % len(SIZES) == len(SIZES) - 1)
            i += 1
            if compact or time.time() >= t_end:
                break
        soak.finish()
        print('\nsoak (%s ports): %d cycles, %d faults, %d forwarders, %d generators' %
              (port, i, len(soak.report), soak.nfwd, soak.ngen))
        print('no crash; every forwarder exited 0 with every zone full again')
        for n, ctl in soak.exits:
            print('  forwarder %d: %d squeezes (up to %d mbufs held), %d port restarts, '
                  'rx_nombuf %d' % (n, ctl['squeezes'], ctl['held_max'], ctl['restarts'],
                                    ctl['rx_nombuf']))
        for n, warm, top in soak.rss:
            print('  forwarder %d: RSS %d KB after warm-up, at most %d KB (+%d)' %
                  (n, warm, top, top - warm))
        worst = max(r[3] for r in soak.report)
        print('recovery after every fault within %.1f s (limit %d s)' % (worst, RECOVER_S))
        print('PASS')
        return 0
    except Skip as e:
        print('SKIP: %s' % e)
        return SKIP
    except Fail as e:
        print('FAIL: %s' % e)
        return 1
    finally:
        try:
            env.cleanup(keep=bool(os.environ.get('MBUFX_KEEP_FAILED')))
        finally:
            if topo is not None:
                topo.close()


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith('-'):
        print(__doc__)
        return 2
    compact = '--compact' in args
    minutes = 10.0
    if '--minutes' in args:
        minutes = float(args[args.index('--minutes') + 1])
    port = 'vhost'
    if '--port' in args:
        port = args[args.index('--port') + 1]
        if port not in ('vhost', 'xdp'):
            print('--port %s: want vhost or xdp' % port)
            return 2
    return run(args[0], minutes, compact, port)


if __name__ == '__main__':
    sys.exit(main())
