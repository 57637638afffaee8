#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# Unmodified dpdk-testpmd forwarding on an mbufx pool.
#
#     testpmd-pool.sh BUILD null|ring MBUF_SIZE MBCACHE
#
# Behaviour protected: testpmd, given only "-d librte_mempool_mbufx.so
# --mbuf-pool-ops-name=mbufx", builds its mbuf pool on our driver, forwards
# packets in io mode between two virtual ports, and gets every mbuf back.
# MBUF_SIZE 2176 is the packet class; 9344 with --max-pkt-len=9000 the jumbo
# class. net_null ports run in copy mode with frames filling the data room
# (2048 or 9000 bytes), so every buffer is written and read end to end;
# net_ring ports are seeded with "start tx_first" bursts of the same size.
#
# Method: testpmd runs interactively, its commands fed through a FIFO; each
# step waits for testpmd's answer in the log (stdout line-buffered by
# stdbuf), so no step races the initialisation.
#   start [tx_first]; sleep; stop   -> "Accumulated forward statistics":
#                                      RX-packets and TX-packets > 0
#   set fwd rxonly; start; stop     -> "start" flushes the Rx queues and
#                                      rxonly frees what arrives: mbufs parked
#                                      in net_ring's rings return to the pool
#   port stop all; dump mempool     -> for mb_pool_0: ops_name is <mbufx> and
#                                      common_pool_count + total_cache_count
#                                      == size == --total-num-mbufs, i.e.
#                                      not one mbuf leaked
#   quit                            -> exit 0, "Bye..."
# The log must also carry testpmd's own "preferred mempool ops selected:
# mbufx" line.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

[ $# -eq 4 ] || usage "BUILD null|ring MBUF_SIZE MBCACHE"
ports=$2
mbuf_size=$3
mbcache=$4
TESTPMD=${TESTPMD:-/usr/bin/dpdk-testpmd}
SECONDS_FWD=${MBUFX_TESTPMD_SECONDS:-3}
NB_MBUF=8192
TELEMETRY=${TELEMETRY:-/usr/bin/dpdk-telemetry.py}
[ -x "$TESTPMD" ] || skip "$TESTPMD not installed"
[ -f "$TELEMETRY" ] || skip "$TELEMETRY not installed"
command -v stdbuf >/dev/null || skip "stdbuf (coreutils) missing"

frame=$((mbuf_size - 128))
extra=""
want_class=packet
if [ "$mbuf_size" -gt 2176 ]; then
    frame=9000
    extra="--max-pkt-len=9000"
    want_class=jumbo
fi
# net_null's copy mode writes each frame on Rx and reads it on Tx, so the run
# touches every buffer. From DPDK 25.07 on, that mode's Tx frees nothing of
# what it sends (every mbuf leaks, the pool runs dry after one pool's worth):
# there the ports run without it. The DPDK version is the installed one's.
copy=",copy=1"
dpdk_ver=$(pkg-config --modversion libdpdk 2>/dev/null || echo 0)
if [ "$(printf '%s\n' "$dpdk_ver" 25.07 | sort -V | head -n 1)" = 25.07 ] ||
    [ "$dpdk_ver" = 0 ]; then
    copy=""
fi
case $ports in
null)
    vdevs="--vdev=net_null0,size=$frame$copy --vdev=net_null1,size=$frame$copy"
    start="start"
    ;;
ring)
    vdevs="--vdev=net_ring0 --vdev=net_ring1"
    start="start tx_first"
    ;;
*)
    echo "unknown ports: $ports"
    exit 2
    ;;
esac

dpdk_env "$1" "testpmd_${ports}_${mbuf_size}_$mbcache"
# shellcheck disable=SC2086
testpmd_start -l 0-1 --no-pci $MEM $vdevs -- \
    -i --forward-mode=io --nb-cores=1 --total-num-mbufs=$NB_MBUF \
    --mbuf-size="$mbuf_size" --mbcache="$mbcache" $extra
grep -q "create a new mbuf pool <mb_pool_0>: n=$NB_MBUF, size=$mbuf_size," "$log" ||
    fail "testpmd did not create mb_pool_0 with n=$NB_MBUF size=$mbuf_size" "$log"

[ "$ports" = ring ] && send "set txpkts $frame"
send "$start"
wait_for "io packet forwarding - ports=2" 1 30
sleep "$SECONDS_FWD"
send "stop"
wait_for "Accumulated forward statistics" 1 30
send "set fwd rxonly"
send "start"
wait_for "rxonly packet forwarding - ports=2" 1 30
sleep 0.5
send "stop"
wait_for "Accumulated forward statistics" 2 30
send "port stop all"
send_dump_mempool
wait_for "common_pool_count=" 1 30
# The driver's own view, through its telemetry, while testpmd still runs.
printf '/mbufx/pool,mb_pool_0\n' |
    /usr/bin/python3 "$TELEMETRY" -f "$PREFIX" >"$WORK/tel.json" 2>&1 ||
    fail "dpdk-telemetry.py failed" "$WORK/tel.json"
send "quit"
exec 3>&-

t=0
while kill -0 $pid 2>/dev/null; do
    [ $t -lt 150 ] || fail "testpmd did not quit" "$log"
    sleep 0.2
    t=$((t + 1))
done
rc=0
wait $pid || rc=$?
[ $rc -eq 0 ] || fail "testpmd exit status $rc" "$log"
grep -q "^Bye" "$log" || fail "testpmd did not exit cleanly" "$log"

# First accumulated block: the io forwarding run.
# shellcheck disable=SC2046 # two numbers, split on purpose
set -- $(awk '/Accumulated forward statistics/ { n++ }
    n == 1 && /RX-packets:/ && rx == "" { rx = $2 }
    n == 1 && /TX-packets:/ && tx == "" { tx = $2 }
    END { print (rx == "" ? 0 : rx), (tx == "" ? 0 : tx) }' "$log")
rx=$1
tx=$2
[ "$rx" -gt 0 ] && [ "$tx" -gt 0 ] ||
    fail "nothing forwarded: RX-packets=$rx TX-packets=$tx" "$log"

# The dump of mb_pool_0 (cache counts absent when the cache size is 0).
# shellcheck disable=SC2046 # four words, split on purpose
set -- $(awk '/^mempool <mb_pool_0>/ { p = 1; next }
    /^mempool </ { p = 0 }
    p && /^  size=/ { split($0, a, "="); size = a[2] }
    p && /ops_name:/ { ops = $2 }
    p && /total_cache_count=/ { split($0, a, "="); cache = a[2] }
    p && /common_pool_count=/ { split($0, a, "="); common = a[2] }
    END { print (ops == "" ? "none" : ops), size + 0, cache + 0, common + 0 }' "$log")
ops=$1
size=$2
cache=$3
common=$4
[ "$ops" = "<mbufx>" ] || fail "mb_pool_0 ops_name is $ops, not <mbufx>" "$log"
[ "$size" -eq $NB_MBUF ] || fail "mb_pool_0 size $size != $NB_MBUF" "$log"
[ $((cache + common)) -eq "$size" ] ||
    fail "leak: pool $common + caches $cache of $size mbufs after stop" "$log"

# /mbufx/pool,mb_pool_0: {"class": ..., "objects": N, "free": N, "avail": N,
# "in_use": 0, ...}: the class the driver chose, and its own exact count.
tel() {
    /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["/mbufx/pool"]
print(d[sys.argv[2]])' "$WORK/tel.json" "$1" 2>/dev/null ||
        fail "telemetry has no '$1'" "$WORK/tel.json"
}
class=$(tel class)
[ "$class" = "$want_class" ] ||
    fail "mb_pool_0 is of class $class, not $want_class" "$WORK/tel.json"
[ "$(tel objects)" -eq $NB_MBUF ] || fail "telemetry objects" "$WORK/tel.json"
[ "$(tel in_use)" -eq 0 ] && [ "$(tel avail)" -eq $NB_MBUF ] ||
    fail "leak seen by the driver: in_use $(tel in_use)" "$WORK/tel.json"
[ "$(tel objs_got)" -gt 0 ] ||
    fail "driver handed out no object: pool not used?" "$WORK/tel.json"

echo "ports=$ports mbuf-size=$mbuf_size mbcache=$mbcache frame=$frame:" \
    "forwarded rx=$rx tx=$tx in ${SECONDS_FWD}s;" \
    "mb_pool_0 ops $ops, free $common + cached $cache = $size of $NB_MBUF;" \
    "driver: class $class, chunks $(tel chunks), free $(tel free)," \
    "objs_got $(tel objs_got), batches_in $(tel batches_in)"
echo "PASS"
