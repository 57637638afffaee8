#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# `make bench`: every component's benchmark, one after the other, then the
# report. Never a pass/fail on timing: the exit status is non-zero only when
# a benchmark could not run (crash, missing results).
#
#     devtools/bench.sh BUILD
#
#   1. the perf suite of the autotest runner (meson test --suite perf): the
#      driver's mempool_mbufx_perf_autotest -> driver.json, and the library's
#      *_perf_autotest -> lib.json, rx.json (when they exist)
#   2. devtools/bench-testpmd.sh: dpdk-testpmd on net_null, per driver
#      -> testpmd.json
#   3. devtools/bench-apps.sh BUILD, when present -> apps.json
#   4. devtools/bench-xdp.sh BUILD: AF_XDP ports on veth -> xdp.json, and
#      bench-xdp.sh BUILD ab: late attach against classic refill -> xdp_ab.json
#   5. devtools/bench-report.py: RESULTS.md and one PNG chart per JSON
#
# Results go to $MBUFX_BENCH_OUT (default: bench-results/ at the top of the
# tree). MBUFX_BENCH_REPS (default 5) sets the repetitions of every
# benchmark that honours it. MBUFX_BENCH_RT=1 runs the perf suite (one
# process, short runs) under SCHED_RR (chrt -r 50), so that other jobs on a
# shared machine do not preempt the measured loops; the multi-process
# benchmarks (testpmd, apps) always run at normal priority. The build is not rebuilt here (make bench
# builds first). MBUFX_BENCH_PARTS picks steps 1-4 by name (default
# "perf testpmd apps xdp"; make bench-distros runs "perf apps").
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 BUILD"; exit 2; }
build=$(cd "$1" && pwd) || exit 2
out=${MBUFX_BENCH_OUT:-$root/bench-results}
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
MBUFX_BENCH_OUT=$out
export MBUFX_BENCH_OUT
failed=""
notes=""
# results of an earlier run must not pass for this one's
rm -f "$out"/*.json "$out"/*.png "$out/RESULTS.md"

parts=" ${MBUFX_BENCH_PARTS:-perf testpmd apps xdp} "
step() {
    echo
    echo "=== bench: $1"
}
# want PART: the step is among MBUFX_BENCH_PARTS
want() {
    case "$parts" in *" $1 "*) return 0 ;; esac
    echo "(not in MBUFX_BENCH_PARTS)"
    return 1
}

# 1. perf suite of the runner (driver and library benchmarks)
step "perf suite (mbufx-test *_perf_autotest)"
# older meson lists "mbufx:perf / NAME", newer (1.12) "perf - mbufx:NAME"
perf=$(meson test -C "$build" --no-rebuild --suite perf --list 2>/dev/null |
    sed -n 's|^[^ ]*:perf / ||p; s|^perf - [^:]*:||p' | tr '\n' ' ')
if ! want perf; then
    :
elif [ -z "$perf" ]; then
    notes="$notes
- no perf-suite test registered"
else
    echo "tests: $perf"
    rt=""
    if [ "${MBUFX_BENCH_RT:-0}" = 1 ] && command -v chrt >/dev/null; then
        rt="chrt -r 50"
        notes="$notes
- perf suite run under SCHED_RR (MBUFX_BENCH_RT=1)"
    fi
    # shellcheck disable=SC2086
    $rt meson test -C "$build" --no-rebuild --suite perf --num-processes 1 \
        --timeout-multiplier 4 --print-errorlogs --verbose ||
        failed="$failed perf-suite"
fi
for j in driver lib rx; do
    want perf >/dev/null || continue
    [ -f "$out/$j.json" ] || notes="$notes
- $j.json absent: its benchmark is not in this tree yet (or failed)"
done

# 2. dpdk-testpmd per driver
step "dpdk-testpmd net_null io (bench-testpmd.sh)"
if want testpmd; then
    "$root/devtools/bench-testpmd.sh" "$build" || failed="$failed bench-testpmd"
fi

# 3. the applications
step "applications (bench-apps.sh)"
if ! want apps; then
    :
elif [ -x "$root/devtools/bench-apps.sh" ]; then
    "$root/devtools/bench-apps.sh" "$build" || failed="$failed bench-apps"
elif [ -f "$root/devtools/bench-apps.sh" ]; then
    sh "$root/devtools/bench-apps.sh" "$build" || failed="$failed bench-apps"
else
    echo "devtools/bench-apps.sh absent: skipped"
    notes="$notes
- apps.json absent: devtools/bench-apps.sh is not in this tree yet"
fi

# 4. AF_XDP ports on a veth pair (net_mbufx_xdp against net_af_xdp, then
#    net_mbufx_xdp late attach against its classic refill)
step "AF_XDP (bench-xdp.sh)"
if want xdp; then
    "$root/devtools/bench-xdp.sh" "$build" || failed="$failed bench-xdp"
    # the refill A/B of the same port: late attach against classic refill
    "$root/devtools/bench-xdp.sh" "$build" ab || failed="$failed bench-xdp-ab"
fi

# 5. the report
step "report"
[ -n "$failed" ] && notes="$notes
- failed to run:$failed (see the output of make bench)"
/usr/bin/python3 "$root/devtools/bench-report.py" "$out" || failed="$failed report"
if [ -n "$notes" ] && [ -f "$out/RESULTS.md" ]; then
    printf '\n## Notes\n%s\n' "$notes" >>"$out/RESULTS.md"
fi
[ -n "$notes" ] && printf 'notes:%s\n' "$notes"

echo
if [ -n "$failed" ]; then
    echo "bench: FAILED to run:$failed (results so far in $out)"
    exit 1
fi
echo "bench: results in $out/RESULTS.md"
