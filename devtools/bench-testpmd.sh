#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# Benchmark (d) of issue #2: unmodified dpdk-testpmd, io forwarding between
# two net_null ports (allocate on Rx, free on Tx: a pure buffer-path
# workload), with its mbuf pool on each driver in turn.
#
#     devtools/bench-testpmd.sh BUILD
#
# Interleaved: for each repetition, for --mbcache=0 and 250, one testpmd run
# per driver (mbufx, ring_mp_mc, stack by default). Each run: start, 1 s of
# warm-up, "show port stats all", MBUFX_TESTPMD_SECONDS (3) seconds,
# "show port stats all" again: the sum of the two ports' Rx-pps over that
# window, measured by testpmd with the TSC, is the forwarding rate.
# Fixed pool: --total-num-mbufs=MBUFX_TESTPMD_NB_MBUF (16384), 2176-byte
# mbufs. Writes $MBUFX_BENCH_OUT/testpmd.json (default bench-results/).
#
# Environment: MBUFX_BENCH_OUT, MBUFX_BENCH_REPS (5), MBUFX_TESTPMD_SECONDS,
# MBUFX_TESTPMD_NB_MBUF, MBUFX_TESTPMD_DRIVERS ("mbufx ring_mp_mc stack").
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/devtools/lib.sh"

[ $# -eq 1 ] || { echo "usage: $0 BUILD"; exit 2; }
build=$(cd "$1" && pwd)
out=${MBUFX_BENCH_OUT:-bench-results}
reps=${MBUFX_BENCH_REPS:-5}
secs=${MBUFX_TESTPMD_SECONDS:-3}
nb_mbuf=${MBUFX_TESTPMD_NB_MBUF:-16384}
drivers=${MBUFX_TESTPMD_DRIVERS:-mbufx ring_mp_mc stack}
TESTPMD=${TESTPMD:-dpdk-testpmd}
command -v "$TESTPMD" >/dev/null || { echo "bench-testpmd: no $TESTPMD"; exit 1; }
mkdir -p "$out"

mbufx_plugin_args "$build"
mem=$(mbufx_mem_args 256)
[ -n "$mem" ] || mem="--huge-unlink -m 256"
if [ "$(id -u)" -eq 0 ]; then rundir=/var/run/dpdk; else rundir=${XDG_RUNTIME_DIR:-/tmp}/dpdk; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/mbufx-bench-testpmd.XXXXXX")
pid=""
prefix=""
cleanup() {
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        sleep 1
        kill -9 "$pid" 2>/dev/null || true
    fi
    [ -n "$prefix" ] && rm -rf "${rundir:?}/$prefix"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE

# run DRIVER CACHE: the forwarding rate in Mpps, or "fail", into $work/value
# (not through $(...): the cleanup trap must see the testpmd pid).
run() {
    log=$work/$1.$2.log
    prefix="mbufx_bench_tp_$$"
    rm -f "$work/in"
    mkfifo "$work/in"
    # shellcheck disable=SC2086
    stdbuf -oL -eL "$TESTPMD" -l 0-1 --no-pci $mem --file-prefix="$prefix" \
        $MBUFX_PLUGIN_ARGS --mbuf-pool-ops-name="$1" \
        --vdev=net_null0 --vdev=net_null1 -- \
        -i --forward-mode=io --nb-cores=1 --total-num-mbufs="$nb_mbuf" \
        --mbuf-size=2176 --mbcache="$2" <"$work/in" >"$log" 2>&1 &
    pid=$!
    exec 3>"$work/in"
    ok=1
    waitfor "testpmd> " 1 120 || ok=0
    if [ $ok = 1 ] && grep -q "preferred mempool ops selected: $1\$" "$log"; then
        echo start >&3
        sleep 1
        echo "show port stats all" >&3
        sleep "$secs"
        echo "show port stats all" >&3
        waitfor "Rx-pps:" 4 30 || ok=0
        echo stop >&3
    else
        ok=0
    fi
    echo quit >&3
    exec 3>&-
    t=0
    while kill -0 "$pid" 2>/dev/null && [ $t -lt 100 ]; do
        sleep 0.2
        t=$((t + 1))
    done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=""
    rm -rf "${rundir:?}/$prefix"
    if [ $ok = 0 ]; then
        echo fail >"$work/value"
        echo "bench-testpmd: run $1 cache $2 failed; log:" >&2
        tail -n 20 "$log" >&2
        return 0
    fi
    # the second "show port stats all": Rx-pps of ports 0 and 1
    awk '/Rx-pps:/ { n++; if (n > 2) s += $2 } END { printf "%.3f\n", s / 1e6 }' \
        "$log" >"$work/value"
}

# waitfor PATTERN COUNT SECONDS
waitfor() {
    t=0
    while [ "$(grep -c -- "$1" "$log" || true)" -lt "$2" ]; do
        kill -0 "$pid" 2>/dev/null || return 1
        [ $t -lt $(($3 * 5)) ] || return 1
        sleep 0.2
        t=$((t + 1))
    done
}

echo "bench-testpmd: net_null io, $nb_mbuf mbufs of 2176, drivers: $drivers;" \
    "$reps repetitions, ${secs}s each"
: >"$work/results"
load0=$(cut -d' ' -f1 /proc/loadavg)
r=1
while [ $r -le "$reps" ]; do
    for c in 0 250; do
        for d in $drivers; do
            run "$d" "$c"
            v=$(cat "$work/value")
            echo "$d $c $r $v" >>"$work/results"
            printf '  rep %s mbcache %-3s %-10s %s Mpps\n' "$r" "$c" "$d" "$v"
        done
    done
    r=$((r + 1))
done

python3 - "$work/results" "$out/testpmd.json" "$nb_mbuf" "$reps" "$secs" \
    "$drivers" "$load0 at start, $(cut -d' ' -f1 /proc/loadavg) at end (1 min)" <<'EOF'
import json, statistics, sys
res, path, nb_mbuf, reps, secs, drivers, load = sys.argv[1:8]
drivers = drivers.split()
runs = {}
for line in open(res):
    d, c, r, v = line.split()
    if v != "fail":
        runs.setdefault(c, {}).setdefault(d, []).append(float(v))
rows = []
for c in ("0", "250"):
    rc = runs.get(c, {})
    values = {d: round(statistics.median(rc[d]), 3) for d in drivers if d in rc}
    row = {"case": f"(d) testpmd net_null io, --mbcache={c}", "metric": "Mpps",
           "better": "higher", "values": values,
           "runs": {d: rc[d] for d in drivers if d in rc},
           "baseline": "ring_mp_mc", "target": None, "met": None,
           "note": "no target in the issue; ring_mp_mc is testpmd's default"}
    if "mbufx" in values and values.get("ring_mp_mc"):
        row["ratio"] = round(values["mbufx"] / values["ring_mp_mc"], 3)
    missing = [d for d in drivers if len(rc.get(d, [])) < int(reps)]
    if missing:
        row["note"] += "; failed runs left out: " + ", ".join(missing)
    rows.append(row)
doc = {"bench": "testpmd",
       "title": "dpdk-testpmd io forwarding on two net_null ports (Mpps, higher is better)",
       "env": {"pool": f"--total-num-mbufs={nb_mbuf} --mbuf-size=2176",
               "repetitions": f"{reps}, drivers interleaved, medians",
               "window": f"{secs} s after 1 s warm-up, Rx-pps of both ports summed",
               "lcores": "-l 0-1: main 0 (command line), 1 forwarding core",
               "ports": "--vdev=net_null0 --vdev=net_null1 (no copy)",
               "loadavg": load},
       "rows": rows}
with open(path, "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
for row in rows:
    print(f"  {row['case']}: " + ", ".join(f"{d} {v}" for d, v in row["values"].items())
          + (f"; ratio mbufx/ring_mp_mc {row['ratio']}" if "ratio" in row else ""))
print(f"wrote {path}")
EOF
