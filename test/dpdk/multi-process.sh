#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# DPDK's secondary-process tools against a dpdk-testpmd primary whose mbuf
# pool is on the mbufx driver: the rule and the workaround of the driver
# guide (doc/guides/mempool/mbufx.rst, "Several processes").
#
#     multi-process.sh BUILD
#
# A pool stores only its ops index; every process numbers its mempool
# drivers in the order it registers them: drivers linked into the program
# first, then -d plugins in command-line order, then the EAL's plugin
# directory. dpdk-testpmd links a mempool driver (Debian: librte_mempool_dpaa)
# that dpdk-proc-info and dpdk-pdump do not, so "-d librte_mempool_mbufx.so"
# alone does not give them testpmd's numbering. Behaviour protected:
#   1. dpdk-proc-info --show-mempool without the workaround reads mb_pool_0
#      through another driver: its ops_name is not <mbufx> (the counts it
#      prints are that driver's, if it does not crash);
#   2. with the workaround, "-d" for each mempool driver testpmd links (in
#      link order, found with ldd) and then testpmd's own -d plugins, it
#      shows ops_name <mbufx> and the exact free count of the idle pool;
#   3. this tree's runner as a secondary with the other numbering: the
#      library refuses mb_pool_0 (mbufx_pool_ops_check(): EXDEV) and the
#      driver refuses to create an mbufx pool there (mbufx_mp_autotest,
#      role foreign);
#   4. dpdk-pdump with the workaround captures testpmd's traffic (its own
#      pool, made in the secondary, is filled by the primary: the numberings
#      must agree both ways), exits 0 on SIGINT, and testpmd gets every mbuf
#      of mb_pool_0 back.
# Steps 1 and 3 need testpmd to link a mempool driver; where it links none
# they are skipped with a message (the numberings then agree anyway). The
# order is 2, 4, 3, 1: step 3's secondary makes (and is refused) a pool in
# the shared list, and step 1 may crash holding a lock of the shared memory.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

[ $# -eq 1 ] || usage "BUILD"
TESTPMD=${TESTPMD:-/usr/bin/dpdk-testpmd}
PROCINFO=${PROCINFO:-/usr/bin/dpdk-proc-info}
PDUMP=${PDUMP:-/usr/bin/dpdk-pdump}
NB_MBUF=2048
for t in "$TESTPMD" "$PROCINFO" "$PDUMP"; do
    [ -x "$t" ] || skip "$t not installed"
done
command -v stdbuf >/dev/null || skip "stdbuf (coreutils) missing"
command -v ldd >/dev/null || skip "ldd missing"

dpdk_env "$1" multi_process
case "$MEM" in
*--no-huge*) skip "secondary processes need hugepages" ;;
esac
# secondaries map the primary's hugepage files: no --huge-unlink
MEM="-m 256"

# The workaround: testpmd's linked mempool drivers, then its -d plugins.
linked=$(ldd "$TESTPMD" | awk '/librte_mempool_/ && $3 ~ /^\// { print $3 }' |
    awk '!seen[$0]++')
same_order=""
for so in $linked; do
    same_order="$same_order -d $so"
done
same_order="$same_order $PLUGIN"

# shellcheck disable=SC2086
testpmd_start -l 0-1 --no-pci $MEM --vdev=net_null0 --vdev=net_null1 -- \
    -i --forward-mode=io --nb-cores=1 --total-num-mbufs=$NB_MBUF --mbcache=0

# show_mempool OUT ARGS...: proc-info's view of mb_pool_0, "OPS COUNT".
show_mempool() {
    _out=$1
    shift
    # shellcheck disable=SC2086
    timeout 60 stdbuf -oL -eL "$PROCINFO" --file-prefix="$PREFIX" --no-pci \
        "$@" -- --show-mempool >"$_out" 2>&1 || true
    awk '/^mempool <mb_pool_0>/ { p = 1; next } /^mempool </ { p = 0 }
        p && /ops_name:/ { ops = $2 }
        p && /common_pool_count=/ { split($0, a, "="); n = a[2] }
        END { print (ops == "" ? "none" : ops), (n == "" ? -1 : n) }' "$_out"
}

# 2. with the workaround
# shellcheck disable=SC2046,SC2086 # two words; the -d list is split on purpose
set -- $(show_mempool "$WORK/pi-same.log" $same_order)
[ "$1" = "<mbufx>" ] ||
    fail "proc-info with$same_order: mb_pool_0 ops $1, not <mbufx>" "$WORK/pi-same.log"
[ "$2" -eq $NB_MBUF ] ||
    fail "proc-info with the workaround: count $2, not $NB_MBUF" "$WORK/pi-same.log"
echo "proc-info with$same_order: mb_pool_0 ops $1, $2 free of $NB_MBUF"

# 4. dpdk-pdump with the workaround, during io forwarding
send "start"
wait_for "io packet forwarding - ports=2" 1 30
# shellcheck disable=SC2086
stdbuf -oL -eL "$PDUMP" --file-prefix="$PREFIX" --no-pci $same_order -- \
    --pdump "port=0,queue=*,rx-dev=/dev/null" >"$WORK/pdump.log" 2>&1 &
pdump=$!
dpdk_track $pdump
t=0
until grep -q "capture for" "$WORK/pdump.log" 2>/dev/null; do
    kill -0 $pdump 2>/dev/null || fail "pdump died" "$WORK/pdump.log"
    [ $t -lt 150 ] || fail "pdump did not start capturing" "$WORK/pdump.log"
    sleep 0.2
    t=$((t + 1))
done
sleep 1
kill -INT $pdump
wait_exit $pdump 30 || fail "pdump exit status $?" "$WORK/pdump.log"
captured=$(awk -F: '/packets transmitted to vdev/ { gsub(/[ \t]/, "", $2); print $2 }' \
    "$WORK/pdump.log")
[ "${captured:-0}" -gt 0 ] || fail "pdump captured nothing" "$WORK/pdump.log"
send "stop"
wait_for "Accumulated forward statistics" 1 30
send "port stop all"
send_dump_mempool
wait_for "common_pool_count=" 1 30
free=$(awk '/^mempool <mb_pool_0>/ { p = 1; next } /^mempool </ { p = 0 }
    p && /common_pool_count=/ { split($0, a, "="); print a[2] }' "$log")
[ "${free:-0}" -eq $NB_MBUF ] ||
    fail "mb_pool_0 has $free of $NB_MBUF mbufs after pdump" "$log"
echo "pdump with$same_order: $captured packets captured; mb_pool_0 full again"

# 3. the library and the driver refuse the other numbering
if [ -n "$linked" ]; then
    # shellcheck disable=SC2154 # build: set by dpdk_env
    MBUFX_MP_ROLE=foreign timeout 60 "$build/test/mbufx-test" -l 1 --no-pci \
        --proc-type=secondary --file-prefix="$PREFIX" \
        --log-level=lib.eal:warning mbufx_mp_autotest >"$WORK/foreign.log" 2>&1 ||
        fail "mbufx-test as a secondary of testpmd" "$WORK/foreign.log"
    grep -q "mb_pool_0: ops index" "$WORK/foreign.log" ||
        fail "no log line naming the cause" "$WORK/foreign.log"
    echo "mbufx-test secondary: mb_pool_0 refused (EXDEV), mbufx pool creation refused"
fi

# 1. without the workaround, last: proc-info may crash inside the shared
# mempool list's read lock, and a primary that then creates or frees a pool
# waits for it forever
if [ -n "$linked" ]; then
    # shellcheck disable=SC2046 # two words
    set -- $(show_mempool "$WORK/pi-plain.log")
    [ "$1" != "<mbufx>" ] ||
        fail "proc-info without -d read mb_pool_0 as mbufx" "$WORK/pi-plain.log"
    echo "proc-info, no -d: mb_pool_0 read through $1 (count $2): wrong driver"
else
    echo "testpmd links no mempool driver: the numberings agree, step 1 skipped"
fi

send "quit"
exec 3>&-
wait_exit $pid 30 || echo "testpmd exit status $? (after the crash of step 1)"
