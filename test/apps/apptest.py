# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""Harness of the forwarding tests: runs the apps (and dpdk-testpmd) on
virtual ports with unique EAL file prefixes, in a private temporary
directory, and cleans up every process it started.

Exit codes follow the autotest runner: 0 pass, 77 skip, 1 fail.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77


class Skip(Exception):
    pass


class Fail(Exception):
    pass


def check(cond, msg, *args):
    if not cond:
        raise Fail(msg % args if args else msg)


def hugepages_free_mb():
    free = size = 0
    with open('/proc/meminfo') as f:
        for line in f:
            if line.startswith('HugePages_Free:'):
                free = int(line.split()[1])
            elif line.startswith('Hugepagesize:'):
                size = int(line.split()[1])
    return free * size // 1024


def have_hugepages(need_mb):
    if os.environ.get('MBUFX_NO_HUGE'):
        return False
    return os.path.ismount('/dev/hugepages') and hugepages_free_mb() >= need_mb


class Env:
    """Paths, temporary directory and process bookkeeping of one test."""

    def __init__(self, build, name):
        self.build = os.path.abspath(build)
        self.name = name
        self.tmp = tempfile.mkdtemp(prefix='mbufx-%s-' % name)
        self.procs = []
        self.nrun = 0
        self.l3fwd = os.path.join(self.build, 'app', 'l3fwd-mbufx', 'mbufx-l3fwd')
        self.l2fwd = os.path.join(self.build, 'app', 'l2fwd-mbufx', 'mbufx-l2fwd')
        self.plugin_dir = os.path.join(self.build, 'drivers', 'mempool', 'mbufx')
        for b in (self.l3fwd, self.l2fwd):
            if not os.access(b, os.X_OK):
                raise Skip('%s is not built' % b)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def eal(self, lcores='0', mem=256, huge=None, shared=False):
        """EAL arguments: unique prefix, no PCI, bounded memory. shared: the
        memory must be shareable by fd with a vhost-user peer (virtio-user):
        in-memory hugepage files, one per segment list, nothing left behind."""
        self.nrun += 1
        args = ['-l', lcores, '--no-pci', '--log-level=lib.eal:warning',
                '--file-prefix=mbxapp_%s_%d_%d' % (self.name, os.getpid(), self.nrun)]
        if huge is None:
            huge = have_hugepages(mem + 64)
        if huge and shared:
            args += ['--in-memory', '--single-file-segments', '-m', str(mem)]
        elif huge:
            args += ['--huge-unlink', '-m', str(mem)]
        else:
            args += ['--no-huge', '-m', str(max(mem, 512))]
        return args

    def run(self, cmd, timeout=60, env=None, expect_rc=0):
        """Run to completion; returns (rc, stdout+stderr)."""
        e = dict(os.environ)
        if env:
            e.update(env)
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=timeout, env=e, cwd=self.tmp)
        except subprocess.TimeoutExpired as ex:
            out = (ex.output or b'').decode(errors='replace')
            raise Fail('timeout after %ds: %s\n%s' % (timeout, ' '.join(cmd), out[-4000:]))
        out = p.stdout.decode(errors='replace')
        if expect_rc is not None and p.returncode != expect_rc:
            raise Fail('exit %d (expected %d): %s\n%s' %
                       (p.returncode, expect_rc, ' '.join(cmd), out[-6000:]))
        return p.returncode, out

    def start(self, cmd, env=None, log=None, ignore_sigpipe=False):
        """Start in the background; output goes to log (a file in tmp).
        ignore_sigpipe: the child starts with SIGPIPE ignored (inherited over
        exec), as a peer of a vhost-user port must be."""
        e = dict(os.environ)
        if env:
            e.update(env)
        f = open(self.path(log or 'bg%d.log' % len(self.procs)), 'wb')
        p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, env=e,
                             cwd=self.tmp, start_new_session=True,
                             restore_signals=not ignore_sigpipe)
        p.logfile = f
        self.procs.append(p)
        return p

    def stop(self, p, sig=signal.SIGINT, timeout=20):
        """Signal a background process, wait; returns its exit code."""
        if p.poll() is None:
            p.send_signal(sig)
            try:
                p.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                raise Fail('%s did not stop within %ds' % (p.args[0], timeout))
        p.logfile.close()
        return p.returncode

    def log(self, p):
        if not p.logfile.closed:
            p.logfile.flush()
        with open(p.logfile.name, errors='replace') as f:
            return f.read()

    def cleanup(self, keep=False):
        for p in self.procs:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
        if keep:
            print('kept', self.tmp)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def testpmd_env(self):
        """Environment for an unmodified DPDK program loading our plugin with
        -d librte_mempool_mbufx.so. A sanitizer build's plugin needs the ASan
        runtime loaded first: preload it (and leave testpmd's leaks alone)."""
        ld = self.plugin_dir
        if os.environ.get('LD_LIBRARY_PATH'):
            ld += ':' + os.environ['LD_LIBRARY_PATH']
        env = {'LD_LIBRARY_PATH': ld}
        plugin = os.path.join(self.plugin_dir, 'librte_mempool_mbufx.so')
        try:
            deps = subprocess.run(['ldd', plugin], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL).stdout.decode()
        except OSError:
            deps = ''
        for line in deps.splitlines():
            if 'libasan' in line and '=>' in line:
                env['LD_PRELOAD'] = line.split('=>')[1].split('(')[0].strip()
                env['ASAN_OPTIONS'] = 'detect_leaks=0'
        return env


CLONE_NEWNET = 0x40000000


class NetNs:
    """A network namespace this test creates and enters (the calling thread,
    and every process it starts from now on, live in it until close())."""

    def __init__(self, name):
        import ctypes
        if os.geteuid() != 0:
            raise Skip('network namespaces need root')
        if shutil.which('ip') is None:
            raise Skip('ip (iproute2) not found')
        self.name = name
        self.libc = ctypes.CDLL(None, use_errno=True)
        r = subprocess.run(['ip', 'netns', 'add', name], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise Skip('cannot create a network namespace: %s' % r.stdout.decode().strip())
        self.orig = os.open('/proc/self/ns/net', os.O_RDONLY)
        fd = os.open('/run/netns/' + name, os.O_RDONLY)
        rc = self.libc.setns(fd, CLONE_NEWNET)
        os.close(fd)
        if rc != 0:
            self.close()
            raise Skip('setns failed')
        # no IPv6 autoconfiguration chatter on the test links (the sysctl files
        # belong to the namespace of the thread that opens them)
        for conf in ('all', 'default'):
            path = '/proc/sys/net/ipv6/conf/%s/disable_ipv6' % conf
            if os.path.exists(path):
                with open(path, 'w') as f:
                    f.write('1')

    def sh(self, cmd):
        r = subprocess.run(cmd.split(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise Fail('%s: %s' % (cmd, r.stdout.decode().strip()))

    def close(self):
        if self.orig is not None:
            self.libc.setns(self.orig, CLONE_NEWNET)
            os.close(self.orig)
            self.orig = None
        subprocess.run(['ip', 'netns', 'del', self.name], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


def summary(path):
    with open(path) as f:
        return json.load(f)


def port_macs(s):
    return {p['port']: p['mac'] for p in s['ports']}


def run_pcap(env, binary, inputs, nports, args, tag='run', lcores='0', mem=256,
             expect_rc=0, extra_vdevs=(), pcap_ports=None, check_leak=True):
    """Run an app on net_pcap ports (inputs: {port: frames}) until the captures
    are drained (--idle-exit); returns (summary, {port: output frames}, log)."""
    from pkt import read_pcap, write_pcap
    vdevs, outs = [], {}
    for p in (pcap_ports if pcap_ports is not None else range(nports)):
        rx, tx = env.path('%s_in%d.pcap' % (tag, p)), env.path('%s_out%d.pcap' % (tag, p))
        write_pcap(rx, inputs.get(p, []))
        vdevs += ['--vdev', 'net_pcap%d,rx_pcap=%s,tx_pcap=%s' % (p, rx, tx)]
        outs[p] = tx
    sj = env.path('%s.json' % tag)
    cmd = [binary] + env.eal(lcores, mem) + vdevs + list(extra_vdevs) + [
        '--', '-p', '%x' % ((1 << nports) - 1), '-T', '0', '--idle-exit', '400',
        '--summary', sj] + args
    _, out = env.run(cmd, expect_rc=expect_rc)
    s = summary(sj)
    if check_leak:
        check(not s['leak'], 'mbufs leaked:\n%s', out[-3000:])
    return s, {p: read_pcap(f) for p, f in outs.items()}, out


def bad_run(env, binary, args, expect):
    """A command line that must fail with message expect and status 1 before
    any port is set up."""
    cmd = [binary] + env.eal('0', 64) + ['--vdev', 'net_null0', '--vdev', 'net_null1',
                                         '--'] + args
    rc, out = env.run(cmd, timeout=30, expect_rc=None)
    check(rc == 1, 'exit %d for %s (expected 1):\n%s', rc, args, out[-2000:])
    check(expect in out, 'message %r missing for %s:\n%s', expect, args, out[-2000:])
    check('forwarding on' not in out and 'port 0: net_null0' not in out,
          'a port was set up before the error for %s', args)


def compare_frames(got, want, what):
    """Byte-exact comparison of two frame lists, with a useful message."""
    from pkt import hexdiff
    check(len(got) == len(want), '%s: %d frames, expected %d', what, len(got), len(want))
    for i, (g, w) in enumerate(zip(got, want)):
        check(g == w, '%s: frame %d (%d bytes, expected %d) differs at %s', what, i,
              len(g), len(w), hexdiff(g, w))


# mbufx-l3fwd's pools in the loop_instructions case and the benchmarks
# (devtools/fwdbench.py): fixed sizes, reported with the results, the same for
# both pool kinds.
POOL_ARGS = ['--mbufs', '16383', '--jumbo-mbufs', '2047', '--hdr-mbufs', '4095']
POOL_DESC = 'per zone set: 16383 packet (2176 B), 2047 jumbo (9344 B), 4095 header ' \
            'mbufs; per-lcore caches 256/64/256; stock = same app, ring_mp_mc'


def l3fwd_pool_args(pool, jumbo):
    args = list(POOL_ARGS)
    if jumbo:
        args += ['--max-pkt-len', '9018']
    if pool == 'stock':
        args += ['--pool-ops', 'ring_mp_mc'] + (['--scatter'] if jumbo else [])
    return args


def run_callgrind(env, size, pool, seconds=3, extra=()):
    """Instructions per packet of the forwarding loop (generator, l3fwd and
    sink in one lcore) under callgrind: load-independent. Used by the
    loop_instructions case and by devtools/fwdbench.py. extra: more
    mbufx-l3fwd options."""
    if shutil.which('valgrind') is None:
        raise Skip('valgrind not found (Debian package valgrind)')
    if 'LD_PRELOAD' in env.testpmd_env():
        # valgrind cannot run an ASan binary, and a sanitizer build's counts
        # are not the product's
        raise Skip('a sanitizer build: its instruction counts are not the product\'s')
    jumbo = size > 1518
    tag = 'cg_%d_%s_%d' % (size, pool, env.nrun)
    sj, cg = env.path(tag + '.json'), env.path(tag + '.out')
    env.run(['valgrind', '--tool=callgrind', '--collect-atstart=no',
             '--toggle-collect=l3fwd_lcore_main', '--callgrind-out-file=' + cg,
             env.l3fwd] + env.eal('0', 512, huge=False) + [
             '--vdev', 'net_ring0', '--vdev', 'net_ring1', '--', '-p', '3',
             '--bench-gen', str(size), '--run-time', str(seconds), '--summary', sj] +
            l3fwd_pool_args(pool, jumbo) + list(extra), timeout=seconds * 60 + 120)
    pkts = summary(sj)['ports'][1]['tx_pkts']
    total = None
    with open(cg) as f:
        for line in f:
            if line.startswith(('totals:', 'summary:')):
                total = int(line.split()[1])
    if not pkts or total is None:
        raise Fail('callgrind run of --bench-gen %d on %s: no packets or no totals' %
                   (size, pool))
    return total / pkts


def main(scope, argv=None):
    """Command line: BUILD_DIR CASE [CASE...]; --keep keeps the temp dir.
    The cases are the case_NAME functions of @p scope (the script's
    globals()); the meson list is the only other place that names them.
    A name without its function fails with the list. --cases NAME... checks
    the meson list: it fails unless NAMEs are exactly the script's cases."""
    cases = {n[len('case_'):]: f for n, f in scope.items()
             if n.startswith('case_') and callable(f)}
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ['--cases']:
        listed = set(argv[1:])
        unlisted = sorted(set(cases) - listed)
        unknown = sorted(listed - set(cases))
        if unlisted:
            print('%s: cases not in the meson list: %s' % (sys.argv[0], ' '.join(unlisted)))
        if unknown:
            print('%s: no case_ function for: %s' % (sys.argv[0], ' '.join(unknown)))
        return 1 if unlisted or unknown else 0
    keep = '--keep' in argv
    argv = [a for a in argv if a != '--keep']
    unknown = [c for c in argv[1:] if c not in cases]
    if len(argv) < 2 or unknown:
        if unknown:
            print('%s: no such case: %s' % (sys.argv[0], ' '.join(unknown)))
        print('usage: %s BUILD_DIR CASE...\ncases: %s' %
              (sys.argv[0], ' '.join(sorted(cases))))
        return 2
    rc = 0
    skipped = 0
    for name in argv[1:]:
        env = None
        t0 = time.time()
        try:
            env = Env(argv[0], name)
            print('--- %s: %s' % (name, (cases[name].__doc__ or '').strip().split('\n')[0]))
            cases[name](env)
            print('--- %s: ok (%.1fs)' % (name, time.time() - t0))
        except Skip as e:
            print('--- %s: SKIP: %s' % (name, e))
            skipped += 1
        except Fail as e:
            print('--- %s: FAIL: %s' % (name, e))
            rc = 1
            keep = keep or bool(os.environ.get('MBUFX_KEEP_FAILED'))
        finally:
            if env is not None:
                env.cleanup(keep)
    if rc == 0 and skipped == len(argv) - 1:
        return SKIP
    return rc
