#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# One of DPDK's own autotests (/usr/bin/dpdk-test, unmodified) on the mbufx
# mempool driver.
#
#     dpdk-autotest.sh BUILD TEST_NAME
#
# Behaviour protected: every pktmbuf pool an unmodified DPDK program makes
# works on the "mbufx" ops loaded as a plugin with -d, by DPDK's own contract
# tests. A pass here proves our driver ran only together with two controls,
# each run in the same test:
#
#   1. run:      -d plugin --mbuf-pool-ops-name=mbufx TEST   -> "Test OK", exit 0
#                (mempool_autotest also prints its pool: "ops_name: <mbufx>")
#   2. control:  -d plugin --mbuf-pool-ops-name=<bogus> TEST -> must fail with
#                "error setting mempool handler" / "cannot set <bogus>
#                handler": the test's pools are made through the selected ops
#                name, so in run 1 they were made on "mbufx";
#   3. control:  no -d, --mbuf-pool-ops-name=mbufx TEST      -> must fail the
#                same way: nothing but our plugin registers the name "mbufx".
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

[ $# -eq 2 ] || usage "BUILD TEST_NAME"
test_name=$2
DPDK_TEST=${DPDK_TEST:-/usr/bin/dpdk-test}
[ -x "$DPDK_TEST" ] || skip "$DPDK_TEST not installed"

dpdk_env "$1" "${test_name%_autotest}"
bogus=mbufx_no_such_ops
handler_error="error setting mempool handler|cannot set ($bogus|mbufx) handler"

# run LOG EAL_ARGS...: dpdk-test in the background (so a hang is killed by
# the trap), return its exit status.
run() {
    log=$1
    shift
    # shellcheck disable=SC2086
    "$DPDK_TEST" -l 0-1 --no-pci $MEM --file-prefix="$PREFIX" "$@" \
        "$test_name" >"$log" 2>&1 </dev/null &
    pid=$!
    dpdk_track $pid
    rc=0
    wait $pid || rc=$?
    rm -rf "${DPDK_RUNDIR:?}/$PREFIX"
    return $rc
}

# 1. the test on our driver (with MBUFX_CHECK set: in the checking mode,
# which must have checked the pools and found nothing wrong)
check_log=""
[ -z "${MBUFX_CHECK:-}" ] || check_log=--log-level=pmd.mempool.mbufx:info
rc=0
# shellcheck disable=SC2086
run "$WORK/mbufx.log" $PLUGIN $check_log --mbuf-pool-ops-name=mbufx || rc=$?
[ $rc -eq 0 ] || fail "$test_name on mbufx: exit $rc" "$WORK/mbufx.log"
grep -q "^Test OK" "$WORK/mbufx.log" ||
    fail "$test_name on mbufx: no 'Test OK' (skipped?)" "$WORK/mbufx.log"
if [ -n "$check_log" ]; then
    grep -q "checking mode" "$WORK/mbufx.log" ||
        fail "MBUFX_CHECK=$MBUFX_CHECK: no pool was checked" "$WORK/mbufx.log"
    ! grep -Eq "double free|no object of this pool|write after free" \
        "$WORK/mbufx.log" ||
        fail "the checking mode reported DPDK's own test" "$WORK/mbufx.log"
    echo "checking mode: $(grep -c 'checking mode' "$WORK/mbufx.log") pools, no report"
fi
if [ "$test_name" = mempool_autotest ]; then
    grep -q "ops_name: <mbufx>" "$WORK/mbufx.log" ||
        fail "mempool_autotest did not dump a pool on mbufx" "$WORK/mbufx.log"
fi
grep -E "^(Test OK|RTE>>Testing mbufx|  ops_name: <mbufx>)" "$WORK/mbufx.log" |
    sort | uniq -c

# 2. the same with an unknown ops name must fail at pool creation
rc=0
# shellcheck disable=SC2086
run "$WORK/bogus.log" $PLUGIN --mbuf-pool-ops-name=$bogus || rc=$?
[ $rc -ne 0 ] || fail "$test_name passed with ops '$bogus': it does not use \
the selected ops, so run 1 proves nothing" "$WORK/bogus.log"
grep -Eq "$handler_error" "$WORK/bogus.log" ||
    fail "$test_name with ops '$bogus' failed for another reason" "$WORK/bogus.log"
echo "control: ops '$bogus' -> exit $rc, pool creation refused"

# 3. without the plugin, the name mbufx is unknown
rc=0
run "$WORK/noplugin.log" --mbuf-pool-ops-name=mbufx || rc=$?
[ $rc -ne 0 ] || fail "$test_name passed on 'mbufx' without our plugin: \
another 'mbufx' ops is registered" "$WORK/noplugin.log"
grep -Eq "$handler_error" "$WORK/noplugin.log" ||
    fail "$test_name without plugin failed for another reason" "$WORK/noplugin.log"
echo "control: no plugin -> exit $rc, ops 'mbufx' unknown"

echo "PASS: $test_name on mbufx"
